package webhook

import (
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"slices"
	"strings"
)

// The formats a subscription may be delivered in.
const (
	FormatJSON     = "json"     // a JSON POST signed by X-Newsdedup-Signature
	FormatWeCom    = "wecom"    // a WeCom (企业微信) group robot, markdown
	FormatDingTalk = "dingtalk" // a DingTalk (钉钉) group robot, markdown, signed when a secret is set
	FormatFeishu   = "feishu"   // a Feishu (飞书) group robot, text, signed when a secret is set
)

// Subscription is one receiver and the copies it wants to hear of.
type Subscription struct {
	Name string `json:"name"`
	URL  string `json:"url"`
	// Format is one of the Format constants; json when empty.
	Format string `json:"format"`
	// Secret signs the body (json) or the request (dingtalk, feishu).
	Secret string `json:"secret"`
	// Sources and Owners name whose stories are watched: a copy of an
	// article from one of Sources, or from a source of one of Owners. Both
	// empty means the desk's sources (DEDUP_DESK_SOURCES).
	Sources []string `json:"sources"`
	Owners  []string `json:"owners"`
	// Credits are the credit classes told (credited, credits_other,
	// uncredited); empty means every class.
	Credits []string `json:"credits"`
	// SameOwner also tells of copies between sources of one owner (a
	// portal's sections copying each other), left out by default.
	SameOwner bool `json:"same_owner"`
}

// Config is DEDUP_WEBHOOKS_FILE: the subscriptions and how to link a
// cluster from a message.
type Config struct {
	// ClusterURL is the editors' page address of a cluster, {cluster_id}
	// replaced by its id; messages carry no link when it is empty.
	ClusterURL    string         `json:"cluster_url"`
	Subscriptions []Subscription `json:"subscriptions"`
}

var credits = []string{"credited", "credits_other", "uncredited"}

// ParseConfig reads and checks a webhooks file (JSON).
func ParseConfig(r io.Reader) (Config, error) {
	var c Config
	d := json.NewDecoder(r)
	d.DisallowUnknownFields()
	if err := d.Decode(&c); err != nil {
		return Config{}, fmt.Errorf("parse webhooks: %w", err)
	}
	seen := map[string]bool{}
	for i := range c.Subscriptions {
		s := &c.Subscriptions[i]
		if s.Name == "" {
			return Config{}, fmt.Errorf("subscription %d: name is required", i+1)
		}
		if seen[s.Name] {
			return Config{}, fmt.Errorf("subscription %q: name used twice", s.Name)
		}
		seen[s.Name] = true
		u, err := url.Parse(s.URL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return Config{}, fmt.Errorf("subscription %q: url must be an http or https URL", s.Name)
		}
		if s.Format == "" {
			s.Format = FormatJSON
		}
		if !slices.Contains([]string{FormatJSON, FormatWeCom, FormatDingTalk, FormatFeishu}, s.Format) {
			return Config{}, fmt.Errorf("subscription %q: format must be json, wecom, dingtalk or feishu, not %q", s.Name, s.Format)
		}
		if s.Format == FormatJSON && s.Secret == "" {
			return Config{}, fmt.Errorf("subscription %q: a json subscription needs a secret to sign with", s.Name)
		}
		for _, c := range s.Credits {
			if !slices.Contains(credits, c) {
				return Config{}, fmt.Errorf("subscription %q: credit must be one of %s, not %q", s.Name, strings.Join(credits, ", "), c)
			}
		}
	}
	return c, nil
}

// matches says whether s wants to hear of e; desk stands for empty Sources
// and Owners.
func (s Subscription) matches(e Event, desk []string) bool {
	if e.SameOwner() && !s.SameOwner {
		return false
	}
	if len(s.Credits) > 0 && !slices.Contains(s.Credits, e.Credit) {
		return false
	}
	sources := s.Sources
	if len(s.Sources) == 0 && len(s.Owners) == 0 {
		sources = desk
	}
	return slices.Contains(sources, e.Original.Source) || slices.Contains(s.Owners, e.Original.Owner)
}
