package fingerprint

// heaviest returns the n heaviest keywords in sortByWeight's order, all of
// them when n is 0 or there are no more. It picks them with a heap of n
// before it sorts, rather than sorting every word of the article to keep
// 64: the result is the same, sortByWeight's order being total (each word
// is counted once, so no two keywords tie on both weight and word).
func heaviest(keywords []Keyword, n int) []Keyword {
	if n <= 0 || len(keywords) <= n {
		sortByWeight(keywords)
		return keywords
	}
	// keywords[:n] is a heap with the lightest at its root.
	h := keywords[:n]
	for i := n/2 - 1; i >= 0; i-- {
		siftLightest(h, i)
	}
	for _, k := range keywords[n:] {
		if heavier(k, h[0]) {
			h[0] = k
			siftLightest(h, 0)
		}
	}
	sortByWeight(h)
	return h
}

// heavier reports whether a comes before b in sortByWeight's order.
func heavier(a, b Keyword) bool {
	switch {
	case a.Weight > b.Weight:
		return true
	case a.Weight < b.Weight:
		return false
	}
	return a.Word < b.Word
}

// siftLightest moves h[i] down until no child of it is lighter.
func siftLightest(h []Keyword, i int) {
	for {
		least, l, r := i, 2*i+1, 2*i+2
		if l < len(h) && heavier(h[least], h[l]) {
			least = l
		}
		if r < len(h) && heavier(h[least], h[r]) {
			least = r
		}
		if least == i {
			return
		}
		h[i], h[least] = h[least], h[i]
		i = least
	}
}
