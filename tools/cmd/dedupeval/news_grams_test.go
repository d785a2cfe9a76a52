package main

import (
	"math"
	"testing"
)

// The texts of the tests are this project's own sentences, never corpus
// text.

func TestCompactNormalisesLikeTheService(t *testing.T) {
	t.Parallel()
	// Full-width punctuation, half-width punctuation and spaces all vanish;
	// full-width letters become half-width and lower case.
	a := compact("今天，城里下了一场大雨。ＡＢＣ")
	b := compact("今天, 城里下了一场大雨.  abc")
	if a != b || a != "今天城里下了一场大雨abc" {
		t.Errorf("compact() = %q and %q, want both %q", a, b, "今天城里下了一场大雨abc")
	}
}

func TestGramsOf(t *testing.T) {
	t.Parallel()
	tests := []struct {
		text string
		want int
	}{
		{"", 0},
		{"短句", 1},         // shorter than a gram: one gram
		{"一二三四五", 1},      // exactly one
		{"一二三四五六七", 3},    // three windows
		{"哈哈哈哈哈哈哈哈哈哈", 1}, // one distinct gram, repeated
	}
	for _, tt := range tests {
		if got := len(gramsOf(tt.text)); got != tt.want {
			t.Errorf("len(gramsOf(%q)) = %d, want %d", tt.text, got, tt.want)
		}
	}
}

func TestLikeness(t *testing.T) {
	t.Parallel()
	long := compact("市里新建的图书馆今天向读者开放，馆内藏书二十万册，每天开放十二个小时。")
	short := compact("市里新建的图书馆今天向读者开放。")
	other := compact("山区的果农忙着采摘苹果，今年的收成比去年好得多。")
	a, b, c := gramsOf(long), gramsOf(short), gramsOf(other)

	if lk := likenessOf(a, a); lk.Jaccard != 1 || lk.Containment != 1 {
		t.Errorf("likenessOf(a, a) = %+v, want 1 and 1", lk)
	}
	if lk := likenessOf(a, b); lk.Containment != 1 || lk.Jaccard >= 0.5 {
		t.Errorf("likenessOf(long, its first sentence) = %+v, want containment 1 and a low Jaccard", lk)
	}
	if lk := likenessOf(a, c); lk.Containment > 0.1 {
		t.Errorf("likenessOf(two stories) = %+v, want near 0", lk)
	}
	if lk := likenessOf(a, nil); lk.Jaccard != 0 || lk.Containment != 0 {
		t.Errorf("likenessOf(a, nil) = %+v, want zeros", lk)
	}
	if lk := likenessOf(b, a); math.Abs(lk.Jaccard-likenessOf(a, b).Jaccard) > 1e-12 {
		t.Errorf("likeness is not symmetric: %+v", lk)
	}
}
