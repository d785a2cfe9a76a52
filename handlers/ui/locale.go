package ui

import (
	"embed"
	"fmt"
	"io/fs"
	"net/http"
	"net/url"
	"path"
	"strings"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/nicksnyder/go-i18n/v2/i18n"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
	"gopkg.in/yaml.v3"

	"github.com/newsdedup/newsdedup/handlers/queryparam"
	"github.com/newsdedup/newsdedup/service"
)

// The page's languages. Every word the page shows is a message of
// messages/<language>.yaml (go-i18n, plural forms by CLDR's rules); the
// templates say {{t "id"}}, or {{t "id" "Name" value …}} with the
// message's data, "Count" choosing its plural form. A message missing from
// a language fails the page's rendering, and a test holds the two files
// to the same ids: adding a word is one line in each.
//
// The language is the one the editor chose with the switch on every page
// (a cookie), else the best of the browser's Accept-Language, else
// Simplified Chinese. Times are shown in the editors' zone
// (DEDUP_TIMEZONE) as 2026-11-05 07:09.

//go:embed messages/*.yaml
var messageFiles embed.FS

// languages are the page's languages, the default first.
var languages = []language.Tag{language.SimplifiedChinese, language.English}

var matcher = language.NewMatcher(languages)

const (
	langCookie   = "newsdedup_lang"
	langLifetime = 365 * 24 * time.Hour
	timeLayout   = "2006-01-02 15:04"
)

// locale is one language of the page, in the editors' zone.
type locale struct {
	tag   language.Tag
	loc   *i18n.Localizer
	nums  *message.Printer
	zone  *time.Location
	index int // in languages
}

// loadLocales reads the message files: one locale per language.
func loadLocales(zone *time.Location) ([]*locale, error) {
	bundle := i18n.NewBundle(languages[0])
	bundle.RegisterUnmarshalFunc("yaml", yaml.Unmarshal)
	files, err := fs.Glob(messageFiles, "messages/*.yaml")
	if err != nil {
		return nil, err
	}
	for _, f := range files {
		b, err := messageFiles.ReadFile(f)
		if err != nil {
			return nil, err
		}
		if _, err := bundle.ParseMessageFileBytes(b, path.Base(f)); err != nil {
			return nil, fmt.Errorf("messages %s: %w", f, err)
		}
	}
	out := make([]*locale, len(languages))
	for i, tag := range languages {
		out[i] = &locale{tag: tag, loc: i18n.NewLocalizer(bundle, tag.String()), nums: message.NewPrinter(tag), zone: zone, index: i}
	}
	return out, nil
}

// Lang is the language's tag, for the page's lang attribute.
func (l *locale) Lang() string { return l.tag.String() }

// t says message id in the locale's language; args are pairs of a name
// and a value, the message's data, "Count" choosing its plural form. An
// unknown id, or a message the language lacks, is an error that fails the
// page.
func (l *locale) t(id string, args ...any) (string, error) {
	if len(args)%2 != 0 {
		return "", fmt.Errorf("message %s: arguments must be pairs of a name and a value", id)
	}
	data := make(map[string]any, len(args)/2)
	cfg := &i18n.LocalizeConfig{MessageID: id, TemplateData: data}
	for i := 0; i < len(args); i += 2 {
		name, ok := args[i].(string)
		if !ok {
			return "", fmt.Errorf("message %s: argument %d is not a name", id, i)
		}
		data[name] = args[i+1]
		if name == "Count" {
			cfg.PluralCount = args[i+1]
			data["N"] = l.num(args[i+1])
		}
	}
	s, tag, err := l.loc.LocalizeWithTag(cfg)
	if err == nil && tag != l.tag {
		err = fmt.Errorf("message %s has no %s text", id, l.tag)
	}
	return s, err
}

// must says message id, or the id itself should it be missing: for the
// error page, which must show something.
func (l *locale) must(id string, args ...any) string {
	s, err := l.t(id, args...)
	if err != nil {
		return id
	}
	return s
}

// num writes a number with the language's grouping (12,345).
func (l *locale) num(n any) string {
	return l.nums.Sprint(n)
}

// when writes a time in the editors' zone: 2026-11-05 07:09.
func (l *locale) when(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.In(l.zone).Format(timeLayout)
}

// ZoneName names the editors' zone: 北京时间 / Beijing time for China's,
// else its IANA name with its offset now (Europe/Berlin, UTC+01:00).
func (l *locale) ZoneName() string {
	switch l.zone.String() {
	case "Asia/Shanghai", "Asia/Chongqing", "Asia/Harbin", "PRC":
		return l.must("zone.beijing")
	}
	_, offset := time.Now().In(l.zone).Zone()
	sign := "+"
	if offset < 0 {
		sign, offset = "-", -offset
	}
	return fmt.Sprintf("%s, UTC%s%02d:%02d", l.zone.String(), sign, offset/3600, offset%3600/60)
}

// chooseLocale is the locale of a request: the switch's cookie, else the
// browser's Accept-Language, else the default.
func (p *page) chooseLocale(c echo.Context) *locale {
	if ck, err := c.Cookie(langCookie); err == nil {
		for _, l := range p.locales {
			if ck.Value == l.Lang() {
				return l
			}
		}
	}
	tags, _, _ := language.ParseAcceptLanguage(c.Request().Header.Get("Accept-Language"))
	_, i, conf := matcher.Match(tags...)
	if conf == language.No {
		i = 0
	}
	return p.locales[i]
}

// localeKey is where the locale of a request is kept in its echo context.
const localeKey = "ui.locale"

// localeOf is the request's locale, chosen once.
func (p *page) localeOf(c echo.Context) *locale {
	if l, ok := c.Get(localeKey).(*locale); ok {
		return l
	}
	l := p.chooseLocale(c)
	c.Set(localeKey, l)
	return l
}

// switchLanguage is GET /ui/lang?lang=en&next=/ui/…: the editor's choice of
// language, kept in a cookie, then back to the page.
func (p *page) switchLanguage(c echo.Context) error {
	q := c.QueryParams()
	if err := queryparam.Once(q, "lang", "next"); err != nil {
		return err
	}
	for _, l := range p.locales {
		if strings.EqualFold(q.Get("lang"), l.Lang()) {
			setCookie(c, langCookie, l.Lang(), langLifetime)
			c.Set(localeKey, l)
			return c.Redirect(http.StatusSeeOther, localNext(q.Get("next")))
		}
	}
	return service.Invalid("lang", "must be one of the page's languages (zh-Hans, en), not %q", q.Get("lang"))
}

// switchURL is the address of the switch to language l, back to the
// request's page.
func switchURL(l *locale, c echo.Context) string {
	return "/ui/lang?lang=" + l.Lang() + "&next=" + url.QueryEscape(c.Request().URL.RequestURI())
}
