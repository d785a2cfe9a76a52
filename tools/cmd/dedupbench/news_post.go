package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"time"
)

// newsArticleJSON is an article as POST /v1/articles and each item of
// POST /v1/articles/batch take it.
type newsArticleJSON struct {
	ExternalID  string `json:"external_id"`
	Source      string `json:"source"`
	Title       string `json:"title"`
	Body        string `json:"body"`
	PublishedAt string `json:"published_at"`
}

func articleJSON(it *newsItem) newsArticleJSON {
	return newsArticleJSON{ExternalID: it.ExternalID, Source: "bench", Title: it.Title, Body: it.Body,
		PublishedAt: it.Published.Format(time.RFC3339)}
}

// newsRequest is one request of a run: its body and how many articles it
// carries.
type newsRequest struct {
	body     []byte
	articles int
}

// newsBatchRequests encodes items as POST /v1/articles/batch bodies of
// size articles.
func newsBatchRequests(items []newsItem, size int) ([]newsRequest, error) {
	var out []newsRequest
	for from := 0; from < len(items); from += size {
		var batch []newsArticleJSON
		for i := from; i < min(from+size, len(items)); i++ {
			batch = append(batch, articleJSON(&items[i]))
		}
		b, err := json.Marshal(map[string]any{"articles": batch})
		if err != nil {
			return nil, fmt.Errorf("encode a batch: %w", err)
		}
		out = append(out, newsRequest{body: b, articles: len(batch)})
	}
	return out, nil
}

// newsSingleRequests encodes items as POST /v1/articles bodies.
func newsSingleRequests(items []newsItem) ([]newsRequest, error) {
	out := make([]newsRequest, len(items))
	for i := range items {
		b, err := json.Marshal(articleJSON(&items[i]))
		if err != nil {
			return nil, fmt.Errorf("encode an article: %w", err)
		}
		out[i] = newsRequest{body: b, articles: 1}
	}
	return out, nil
}

// postNews posts the requests to path from clients goroutines, each
// posting the next request when its last one is answered, and counts the
// verdicts. A response other than 2xx is counted (HTTPErrors) and the run
// goes on; a transport error ends the run with that error.
func postNews(ctx context.Context, baseURL, path string, requests []newsRequest, clients int) (NewsRun, error) {
	client := newClient(clients)
	defer client.CloseIdleConnections()
	type answer struct {
		code     int
		verdicts map[string]int
		articles int
	}
	statuses, httpErrs, sent := map[string]int{}, map[string]int{}, 0
	lat, elapsed, err := fanOut(ctx, clients, len(requests), func(i int) (answer, error) {
		code, verdicts, err := postNewsRequest(ctx, client, baseURL+path, requests[i].body)
		return answer{code: code, verdicts: verdicts, articles: requests[i].articles}, err
	}, func(a answer, err error) {
		if err == nil && a.code/100 != 2 {
			httpErrs["http_"+strconv.Itoa(a.code)]++
		}
		sent += a.articles
		for k, v := range a.verdicts {
			statuses[k] += v
		}
	})
	if err == nil {
		err = ctx.Err()
	}
	if err != nil {
		return NewsRun{}, fmt.Errorf("POST %s: %w", path, err)
	}
	run := NewsRun{Seconds: elapsed, PerSecond: float64(sent) / elapsed, Sent: sent, Statuses: statuses, RequestMS: summarize(lat)}
	if len(httpErrs) > 0 {
		run.HTTPErrors = httpErrs
	}
	return run, nil
}

// postNewsRequest posts one body to url and returns the response's status
// code and the verdicts it carries: one for a single article, one per
// article for a batch, "error_<code>" for an article the service refused.
// err is a transport or decoding failure; a non-2xx status is not one.
func postNewsRequest(ctx context.Context, client *http.Client, url string, body []byte) (int, map[string]int, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return 0, nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := client.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return resp.StatusCode, nil, fmt.Errorf("read the response: %w", err)
	}
	if resp.StatusCode/100 != 2 {
		return resp.StatusCode, nil, nil
	}
	type result struct {
		Status string `json:"status"`
		Error  *struct {
			Code string `json:"code"`
		} `json:"error"`
	}
	var v struct {
		result
		Results []result `json:"results"`
	}
	if err := json.Unmarshal(data, &v); err != nil {
		return resp.StatusCode, nil, fmt.Errorf("decode the response: %w", err)
	}
	counts := map[string]int{}
	if v.Results == nil {
		v.Results = []result{v.result}
	}
	for _, r := range v.Results {
		switch {
		case r.Error != nil:
			counts["error_"+r.Error.Code]++
		case r.Status == "":
			counts["error_no_status"]++
		default:
			counts[r.Status]++
		}
	}
	return resp.StatusCode, counts, nil
}
