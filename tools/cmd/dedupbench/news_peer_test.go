package main

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// TestPeerFindsCopies checks that the peer calls a copy a duplicate
// whether its original is in an earlier batch or its own, a half copy a
// duplicate by containment, and different texts unique.
func TestPeerFindsCopies(t *testing.T) {
	text := func(seed int) string {
		var b strings.Builder
		for i := range 200 {
			fmt.Fprintf(&b, "第%d条消息说，%d号的事情", seed*1000+i, i*seed)
		}
		return b.String()
	}
	items := []newsItem{
		{Title: "a", Body: text(1)},
		{Title: "b", Body: text(2)},
		{Title: "c", Body: text(3)},
		{Title: "a copy", Body: text(1)},                  // same batch as its original
		{Title: "b copy", Body: text(2)},                  // next batch
		{Title: "c half", Body: text(3)[:len(text(3))/2]}, // contained
		{Title: "d", Body: text(4)},
	}
	run, err := peerIngest(context.Background(), items, 4)
	if err != nil {
		t.Fatal(err)
	}
	if run.Statuses["duplicate"] != 3 || run.Statuses["unique"] != 4 {
		t.Errorf("statuses %v, want 3 duplicates and 4 unique", run.Statuses)
	}
}
