package main

import (
	"math"
	"strings"
	"testing"
)

func TestWorstFrom(t *testing.T) {
	t.Parallel()
	f := &figures{Reposts: map[string][]rate{
		editChrome: {{Hit: 1, Of: 10}, {Hit: 97, Of: 100}, {Hit: 95, Of: 100}},
		editLight:  {{Hit: 19, Of: 20}, {}, {}},
	}}
	if v, s := worstFrom(editChrome, 1)(f); v != 0.95 || !strings.Contains(s, "≥1000") {
		t.Errorf("worstFrom(chrome, 1) = %v, %q; want 0.95 in band ≥1000 (the 80–300 band left out)", v, s)
	}
	if v, _ := worstFrom(editLight, 0, 0)(f); v != 0.95 {
		t.Errorf("worstFrom(light, 0, 0) = %v, want 0.95", v)
	}
	if v, s := worstFrom(editLight, 1)(f); !math.IsNaN(v) || s != "–" {
		t.Errorf("worstFrom(light, 1) over empty bands = %v, %q; want NaN", v, s)
	}
}

func TestGoalMet(t *testing.T) {
	t.Parallel()
	reach := goal{Limit: 0.99}
	under := goal{Limit: 0.005, AtMost: true}
	for _, tt := range []struct {
		g     goal
		value float64
		want  bool
	}{
		{reach, 0.99, true}, {reach, 0.989, false}, {reach, math.NaN(), false},
		{under, 0.005, true}, {under, 0.0051, false}, {under, 0, true},
	} {
		if got := tt.g.met(tt.value); got != tt.want {
			t.Errorf("goal %+v met(%v) = %v, want %v", tt.g, tt.value, got, tt.want)
		}
	}
	if got := under.target(); got != "≤ 0.5 %" {
		t.Errorf("target() = %q, want ≤ 0.5 %%", got)
	}
	if got := (goal{Limit: 1}).target(); got != "100 %" {
		t.Errorf("target() = %q, want 100 %%", got)
	}
}
