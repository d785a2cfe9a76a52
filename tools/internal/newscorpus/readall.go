package newscorpus

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
)

// ReadAll reads every corpus of Names from dir, in that order, gives the
// articles their publication times (SetPublished, over each whole corpus)
// and leaves out those whose body is blank, which the service refuses: a
// measurement would count them as its own errors. It returns how many it
// left out. When the folder, a corpus file, or every article of a corpus is
// missing, missing says which and nothing is returned: the tools measure
// on both corpora or on neither. err is any other failure.
func ReadAll(ctx context.Context, dir string) (articles []Article, blank int, missing string, err error) {
	if st, err := os.Stat(dir); dir == "" || err != nil || !st.IsDir() {
		return nil, 0, fmt.Sprintf("the corpora folder %q does not exist", dir), nil
	}
	for _, name := range Names {
		read, err := Read(ctx, dir, name, 0)
		switch {
		case errors.Is(err, ErrMissing):
			return nil, 0, err.Error(), nil
		case err != nil:
			return nil, 0, "", fmt.Errorf("read the %s corpus: %w", name, err)
		case len(read) == 0:
			return nil, 0, fmt.Sprintf("the %s corpus in %s holds no article", name, dir), nil
		}
		if err := SetPublished(read); err != nil {
			return nil, 0, "", err
		}
		for _, a := range read {
			if strings.TrimSpace(a.Body) == "" {
				blank++
				continue
			}
			articles = append(articles, a)
		}
	}
	return articles, blank, "", nil
}
