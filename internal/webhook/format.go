package webhook

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// Header names of a json delivery.
const (
	HeaderSignature = "X-Newsdedup-Signature" // sha256=<hex HMAC-SHA256 of the body>
	HeaderDelivery  = "X-Newsdedup-Delivery"  // the delivery id
	HeaderEvent     = "X-Newsdedup-Event"     // "copy"
)

// Payload is the body of a json delivery.
type Payload struct {
	DeliveryID string    `json:"delivery_id"`
	Event      string    `json:"event"`
	EventID    int64     `json:"event_id"`
	Copy       Side      `json:"copy"`
	Original   Side      `json:"original"`
	Credit     string    `json:"credit"`
	SameOwner  bool      `json:"same_owner"`
	ClusterID  int64     `json:"cluster_id"`
	ClusterURL string    `json:"cluster_url,omitempty"`
	DetectedAt time.Time `json:"detected_at"`
}

// Sign is the X-Newsdedup-Signature of body under secret.
func Sign(secret string, body []byte) string {
	m := hmac.New(sha256.New, []byte(secret))
	m.Write(body)
	return "sha256=" + hex.EncodeToString(m.Sum(nil))
}

// DingTalkSign is DingTalk's sign of a robot request at timestamp ms:
// base64 of HMAC-SHA256, keyed by the secret, of "timestamp\nsecret".
func DingTalkSign(secret string, ms int64) string {
	m := hmac.New(sha256.New, []byte(secret))
	fmt.Fprintf(m, "%d\n%s", ms, secret)
	return base64.StdEncoding.EncodeToString(m.Sum(nil))
}

// FeishuSign is Feishu's sign of a robot request at timestamp s (seconds):
// base64 of HMAC-SHA256, keyed by "timestamp\nsecret", of nothing.
func FeishuSign(secret string, s int64) string {
	m := hmac.New(sha256.New, []byte(strconv.FormatInt(s, 10)+"\n"+secret))
	return base64.StdEncoding.EncodeToString(m.Sum(nil))
}

var creditWords = map[string]string{
	"credited":      "注明来源 (credited)",
	"credits_other": "注明其他来源 (credits another source)",
	"uncredited":    "未注明来源 (uncredited)",
}

// text is the human message of a robot.
func text(d Delivery, clusterURL string, markdown bool) string {
	e := d.Event
	var b strings.Builder
	title := e.Original.Title
	if title == "" {
		title = fmt.Sprintf("#%d", e.Original.ID)
	}
	if markdown {
		fmt.Fprintf(&b, "### 转载提醒 · %s\n", e.Original.Source)
	} else {
		fmt.Fprintf(&b, "转载提醒 · %s\n", e.Original.Source)
	}
	fmt.Fprintf(&b, "%s 的《%s》被 %s 转载，%s\n", e.Original.Source, title, e.Copy.Source, creditWords[e.Credit])
	if !e.Original.PublishedAt.IsZero() && !e.Copy.PublishedAt.IsZero() {
		fmt.Fprintf(&b, "发布后 %s\n", e.Copy.PublishedAt.Sub(e.Original.PublishedAt).Round(time.Minute))
	}
	if e.Copy.URL != "" {
		if markdown {
			fmt.Fprintf(&b, "[转载链接](%s)\n", e.Copy.URL)
		} else {
			fmt.Fprintf(&b, "转载链接 %s\n", e.Copy.URL)
		}
	}
	if clusterURL != "" {
		if markdown {
			fmt.Fprintf(&b, "[查看聚类](%s)\n", clusterURL)
		} else {
			fmt.Fprintf(&b, "查看聚类 %s\n", clusterURL)
		}
	}
	fmt.Fprintf(&b, "delivery %s", d.ID)
	return b.String()
}

// request builds the HTTP request of d to s, at now.
func request(s Subscription, d Delivery, clusterURLTemplate string, now time.Time) (*http.Request, error) {
	clusterURL := ""
	if clusterURLTemplate != "" {
		clusterURL = strings.ReplaceAll(clusterURLTemplate, "{cluster_id}", strconv.FormatInt(d.Event.ClusterID, 10))
	}
	target := s.URL
	var body any
	switch s.Format {
	case FormatWeCom:
		body = map[string]any{"msgtype": "markdown", "markdown": map[string]string{"content": text(d, clusterURL, true)}}
	case FormatDingTalk:
		body = map[string]any{"msgtype": "markdown", "markdown": map[string]string{
			"title": "转载提醒 · " + d.Event.Original.Source, "text": text(d, clusterURL, true)}}
		if s.Secret != "" {
			u, err := url.Parse(s.URL)
			if err != nil {
				return nil, err
			}
			ms := now.UnixMilli()
			q := u.Query()
			q.Set("timestamp", strconv.FormatInt(ms, 10))
			q.Set("sign", DingTalkSign(s.Secret, ms))
			u.RawQuery = q.Encode()
			target = u.String()
		}
	case FormatFeishu:
		m := map[string]any{"msg_type": "text", "content": map[string]string{"text": text(d, clusterURL, false)}}
		if s.Secret != "" {
			sec := now.Unix()
			m["timestamp"] = strconv.FormatInt(sec, 10)
			m["sign"] = FeishuSign(s.Secret, sec)
		}
		body = m
	default:
		e := d.Event
		body = Payload{DeliveryID: d.ID, Event: "copy", EventID: e.ID, Copy: e.Copy, Original: e.Original,
			Credit: e.Credit, SameOwner: e.SameOwner(), ClusterID: e.ClusterID, ClusterURL: clusterURL, DetectedAt: e.CreatedAt}
	}
	raw, err := json.Marshal(body)
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequest(http.MethodPost, target, bytes.NewReader(raw))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json; charset=utf-8")
	req.Header.Set(HeaderDelivery, d.ID)
	req.Header.Set(HeaderEvent, "copy")
	if s.Format == FormatJSON {
		req.Header.Set(HeaderSignature, Sign(s.Secret, raw))
	}
	return req, nil
}
