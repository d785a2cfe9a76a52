package webhook

import (
	"strings"
	"testing"
)

func TestParseConfig(t *testing.T) {
	good := `{"cluster_url":"https://x/ui/clusters/{cluster_id}","subscriptions":[
		{"name":"a","url":"https://h/a","secret":"s","credits":["uncredited"]},
		{"name":"b","url":"http://h/b","format":"wecom","owners":["bjd"]}]}`
	c, err := ParseConfig(strings.NewReader(good))
	if err != nil || len(c.Subscriptions) != 2 || c.Subscriptions[0].Format != FormatJSON {
		t.Fatalf("ParseConfig(good) = %+v, %v; want two, the first json by default", c, err)
	}
	for name, bad := range map[string]string{
		"no name":       `{"subscriptions":[{"url":"https://h","secret":"s"}]}`,
		"twice":         `{"subscriptions":[{"name":"a","url":"https://h","secret":"s"},{"name":"a","url":"https://h","secret":"s"}]}`,
		"bad url":       `{"subscriptions":[{"name":"a","url":"ftp://h","secret":"s"}]}`,
		"json unsigned": `{"subscriptions":[{"name":"a","url":"https://h"}]}`,
		"bad format":    `{"subscriptions":[{"name":"a","url":"https://h","format":"slack"}]}`,
		"bad credit":    `{"subscriptions":[{"name":"a","url":"https://h","format":"wecom","credits":["maybe"]}]}`,
		"unknown field": `{"subscriptions":[{"name":"a","url":"https://h","format":"wecom","sorce":["x"]}]}`,
	} {
		if _, err := ParseConfig(strings.NewReader(bad)); err == nil {
			t.Errorf("ParseConfig(%s) = nil error, want one", name)
		}
	}
}

func TestMatches(t *testing.T) {
	e := Event{Copy: Side{Source: "sohu", Owner: "sohu"}, Original: Side{Source: "bjwb", Owner: "bjd"}, Credit: "uncredited"}
	own := Event{Copy: Side{Source: "bjwb-app", Owner: "bjd"}, Original: Side{Source: "bjwb", Owner: "bjd"}, Credit: "uncredited"}
	desk := []string{"bjwb"}
	for _, tc := range []struct {
		s    Subscription
		e    Event
		want bool
	}{
		{Subscription{}, e, true},                                // the desk's sources
		{Subscription{}, own, false},                             // own sections left out
		{Subscription{SameOwner: true}, own, true},               // unless asked for
		{Subscription{Sources: []string{"xinhua"}}, e, false},    // another source
		{Subscription{Owners: []string{"bjd"}}, e, true},         // by owner
		{Subscription{Credits: []string{"credited"}}, e, false},  // another credit
		{Subscription{Credits: []string{"uncredited"}}, e, true}, // this credit
		{Subscription{Sources: []string{"bjwb"}}, e, true},       // named
	} {
		if got := tc.s.matches(tc.e, desk); got != tc.want {
			t.Errorf("%+v.matches(%s←%s) = %v, want %v", tc.s, tc.e.Copy.Source, tc.e.Original.Source, got, tc.want)
		}
	}
}
