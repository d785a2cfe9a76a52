package corpus

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"unicode/utf8"
)

// Edit is a change a newsroom sees between an article and its copy.
type Edit string

// The edits Apply knows.
const (
	// Light is a plain repost: a byline line on top (agency, date, reporter),
	// an editor's line at the bottom, and full-width punctuation swapped for
	// half-width throughout (，。！？：；“”（）、 become , . ! ? : ; " " ( ) ,).
	Light Edit = "light"
	// SentenceDropped removes one sentence (never the only one).
	SentenceDropped Edit = "sentence_dropped"
	// SentenceAdded inserts one sentence from elsewhere in the novel.
	SentenceAdded Edit = "sentence_added"
	// ParagraphMoved moves one paragraph to another position.
	ParagraphMoved Edit = "paragraph_moved"
	// Rewritten replaces about 20% of the body (by runes, whole sentences) with
	// sentences of similar length from elsewhere in the novel.
	Rewritten Edit = "rewritten"
	// Boilerplate adds a newsroom header and footer of 100–300 runes in total:
	// copyright notices, prompts to follow an account or download an app,
	// source lines.
	Boilerplate Edit = "boilerplate"
	// HeadlineChanged gives the article another title (another clause of 8–24
	// runes) and leaves the body as it is.
	HeadlineChanged Edit = "headline_changed"
)

// AllEdits lists every Edit, in a fixed order.
var AllEdits = []Edit{Light, SentenceDropped, SentenceAdded, ParagraphMoved, Rewritten, Boilerplate, HeadlineChanged}

// Boilerplate length, in runes of text added (newlines not counted).
const (
	minBoilerplateRunes = 100
	maxBoilerplateRunes = 300
)

// Apply returns a copy of a changed by e. Only what e names changes: every
// edit but HeadlineChanged keeps the title. An edit that cannot apply returns
// a unchanged: SentenceDropped and Rewritten on a body of one sentence,
// ParagraphMoved on a body of one paragraph. The body is read as paragraphs
// (lines) of sentences as SplitSentences splits them. Apply panics on an
// unknown Edit.
func (n *Novel) Apply(rng *rand.Rand, a Article, e Edit) Article {
	switch e {
	case Light:
		body := byline(rng) + "\n" + a.Body + "\n" + editorLine(rng)
		return Article{Title: a.Title, Body: halfWidth.Replace(body)}
	case SentenceDropped:
		return Article{Title: a.Title, Body: dropSentence(rng, a.Body)}
	case SentenceAdded:
		return Article{Title: a.Title, Body: n.addSentence(rng, a.Body)}
	case ParagraphMoved:
		return Article{Title: a.Title, Body: moveParagraph(rng, a.Body)}
	case Rewritten:
		return Article{Title: a.Title, Body: n.rewrite(rng, a.Body)}
	case Boilerplate:
		header, footer := boilerplate(rng, a.Title)
		return Article{Title: a.Title, Body: strings.Join(header, "\n") + "\n" + a.Body + "\n" + strings.Join(footer, "\n")}
	case HeadlineChanged:
		return Article{Title: n.title(rng, slices.Concat(sentencesOf(a.Body)...), a.Title), Body: a.Body}
	}
	panic(fmt.Sprintf("corpus: unknown edit %q", e))
}

// halfWidth is what a site that converts punctuation does to a text.
var halfWidth = strings.NewReplacer(
	"，", ",", "。", ".", "！", "!", "？", "?", "：", ":", "；", ";",
	"“", `"`, "”", `"`, "（", "(", "）", ")", "、", ",",
)

func dropSentence(rng *rand.Rand, body string) string {
	paras := sentencesOf(body)
	total := 0
	for _, p := range paras {
		total += len(p)
	}
	if total < 2 {
		return body
	}
	k := rng.IntN(total)
	for i, p := range paras {
		if k < len(p) {
			paras[i] = slices.Delete(p, k, k+1)
			break
		}
		k -= len(p)
	}
	return joinParagraphs(slices.DeleteFunc(paras, func(p []string) bool { return len(p) == 0 }))
}

func (n *Novel) addSentence(rng *rand.Rand, body string) string {
	paras := sentencesOf(body)
	s := n.foreign(rng, paras, 0)
	if len(paras) == 0 {
		return s
	}
	i := rng.IntN(len(paras))
	paras[i] = slices.Insert(paras[i], rng.IntN(len(paras[i])+1), s)
	return joinParagraphs(paras)
}

func moveParagraph(rng *rand.Rand, body string) string {
	lines := strings.Split(body, "\n")
	if len(lines) < 2 {
		return body
	}
	i := rng.IntN(len(lines))
	j := rng.IntN(len(lines) - 1)
	if j >= i {
		j++
	}
	p := lines[i]
	lines = slices.Delete(lines, i, i+1)
	return strings.Join(slices.Insert(lines, j, p), "\n")
}

// rewrite replaces whole sentences, taken in random order, until they make
// 20% of the body's runes, skipping any that would take it past 25%; at least
// one sentence, never all.
func (n *Novel) rewrite(rng *rand.Rand, body string) string {
	paras := sentencesOf(body)
	type pos struct{ p, s int }
	var all []pos
	total := 0
	for i, p := range paras {
		for j, s := range p {
			all = append(all, pos{i, j})
			total += utf8.RuneCountInString(s)
		}
	}
	if len(all) < 2 {
		return body
	}
	lo, hi := total/5, total/4
	rng.Shuffle(len(all), func(i, j int) { all[i], all[j] = all[j], all[i] })
	var chosen []pos
	replaced := 0
	for _, q := range all[:len(all)-1] { // never all of them
		if replaced >= lo {
			break
		}
		if r := utf8.RuneCountInString(paras[q.p][q.s]); replaced+r <= hi {
			chosen = append(chosen, q)
			replaced += r
		}
	}
	if len(chosen) == 0 { // every sentence is over a quarter of the body: take the shortest
		shortest := all[0]
		for _, q := range all[1:] {
			if utf8.RuneCountInString(paras[q.p][q.s]) < utf8.RuneCountInString(paras[shortest.p][shortest.s]) {
				shortest = q
			}
		}
		chosen = append(chosen, shortest)
	}
	// The article's sentences and, growing, the replacements: none comes twice.
	have := [][]string{slices.Concat(paras...), nil}
	for _, q := range chosen {
		s := n.foreign(rng, have, utf8.RuneCountInString(paras[q.p][q.s]))
		have[len(have)-1] = append(have[len(have)-1], s)
		paras[q.p][q.s] = s
	}
	return joinParagraphs(paras)
}

// Names of people, places and news organisations, for bylines and
// boilerplate.
var (
	surnames = []rune("王李张刘陈杨赵黄周吴徐孙胡朱高林何郭马罗梁宋郑谢韩唐冯于董萧程曹袁邓许傅沈曾彭吕苏卢蒋蔡贾丁魏薛叶阎余潘杜戴夏钟汪田任姜范方石姚谭廖邹熊金陆郝孔白崔康毛邱秦江史顾侯邵孟龙万段雷钱汤尹黎易常武乔贺赖龚文")
	given    = []rune("伟强娟敏静丽军磊洋勇艳杰娜涛明超秀霞平刚桂英华玉兰芳燕鹏辉建国志红海峰宇欣怡婷晨浩然子涵思雨嘉文博俊凯佳琳雪梅林斌鑫波宁晓东亮飞")
	agencies = []string{"新华社", "中新社", "中新网", "人民网", "央视网", "国际在线", "光明网", "中国日报网", "澎湃新闻", "新京报", "北京日报", "南方日报"}
	cities   = []string{"", "北京", "上海", "广州", "深圳", "南京", "杭州", "武汉", "成都", "重庆", "西安", "天津", "长沙", "郑州", "济南", "沈阳", "昆明", "福州"}
	sites    = []string{"新华网", "人民网", "央视新闻", "澎湃新闻", "中国新闻网", "环球网", "新浪新闻", "腾讯新闻", "网易新闻", "凤凰网", "今日头条", "界面新闻", "光明网", "中国青年网"}
	apps     = []string{"新华社", "人民日报", "央视新闻", "澎湃新闻", "腾讯新闻", "今日头条", "新浪新闻", "网易新闻", "凤凰新闻", "上观新闻"}
)

func pick[T any](rng *rand.Rand, list []T) T { return list[rng.IntN(len(list))] }

// chineseName returns a random name: a surname and one or two given runes.
func chineseName(rng *rand.Rand) string {
	name := []rune{pick(rng, surnames), pick(rng, given)}
	if rng.IntN(3) > 0 {
		name = append(name, pick(rng, given))
	}
	return string(name)
}

func date(rng *rand.Rand) string {
	return fmt.Sprintf("%d月%d日", 1+rng.IntN(12), 1+rng.IntN(28))
}

// byline returns a line such as "新华社北京10月3日电（记者 王伟强）".
func byline(rng *rand.Rand) string {
	reporters := chineseName(rng)
	if rng.IntN(3) == 0 {
		reporters += pick(rng, []string{"、", " ", "　"}) + chineseName(rng)
	}
	space := pick(rng, []string{" ", "", "　"})
	head := pick(rng, agencies) + pick(rng, cities) + date(rng) + "电"
	return head + pick(rng, []string{"", " "}) + "（记者" + space + reporters + "）"
}

// editorLine returns a line such as "（责任编辑：李娟）".
func editorLine(rng *rand.Rand) string {
	role := pick(rng, []string{"责任编辑", "责任编辑", "编辑", "责编"})
	line := role + "：" + chineseName(rng)
	if rng.IntN(4) > 0 {
		line = "（" + line + "）"
	}
	return line
}

// The lines of newsroom boilerplate. {site}, {app}, {agency}, {name},
// {date}, {time}, {n}, {url} and {title} are filled in at random.
var (
	headerLines = []string{
		"原标题：{title}",
		"来源：{site}",
		"来源：{app}客户端",
		"本文来源：{agency}　作者：{name}",
		"发布时间：2024年{date} {time}　来源：{site}　作者：{name}",
		"您当前的位置：首页 > 新闻中心 > 国内新闻 > 正文",
		"点击上方蓝字关注我们，获取更多精彩资讯",
		"【导读】本文约{n}字，阅读需要约5分钟",
		"字号：大 中 小　打印本页　关闭窗口　分享到：微信 微博 QQ空间",
		"关注{site}微信公众号，第一时间获取最新资讯",
		"{app}客户端{date}讯",
		"编者按：本文转载自{site}，不代表本平台观点。",
		"阅读提示：本文约{n}字",
	}
	footerLines = []string{
		"版权声明：本文版权归{site}所有，未经授权不得转载，违者必究。",
		"扫码关注{site}官方微信，获取更多新闻资讯。",
		"下载{app}客户端，随时随地看新闻。",
		"本文来源：{agency}，转载请注明出处。",
		"声明：本文仅代表作者观点，不代表本站立场。如有侵权，请联系我们删除。",
		"（本文来自{site}，原文链接：{url}）",
		"举报/反馈",
		"责任编辑：{name}　审核：{name}",
		"更多精彩内容，请下载{app}APP。",
		"未经许可，禁止转载。新闻热线：010-{n}{n}",
		"本文系{site}原创稿件，转载请联系授权。",
		"点赞、分享、在看，让更多人看到。",
		"投稿邮箱：news{n}@example.com",
		"Copyright © 2024 {site} All Rights Reserved.",
		"京ICP备{n}{n}号　京公网安备{n}{n}{n}号",
		"长按识别二维码，下载{app}APP，阅读更多深度报道。",
		"扫一扫，用手机看新闻！",
		"【免责声明】本文转载自网络，版权归原作者所有，如有侵权请联系删除。",
		"热门推荐：{title}",
	}
)

// boilerplate returns header and footer lines of 100–300 runes in total,
// at least one of each.
func boilerplate(rng *rand.Rand, title string) (header, footer []string) {
	fill := func(line string) string {
		for {
			i := strings.IndexByte(line, '{')
			if i < 0 {
				return line
			}
			j := i + strings.IndexByte(line[i:], '}')
			var v string
			switch line[i+1 : j] {
			case "site":
				v = pick(rng, sites)
			case "app":
				v = pick(rng, apps)
			case "agency":
				v = pick(rng, agencies)
			case "name":
				v = chineseName(rng)
			case "date":
				v = date(rng)
			case "time":
				v = fmt.Sprintf("%02d:%02d", rng.IntN(24), rng.IntN(60))
			case "n":
				v = fmt.Sprint(1000 + rng.IntN(9000))
			case "url":
				v = fmt.Sprintf("https://www.example.com/news/%d/%d.html", 2020+rng.IntN(5), 100000+rng.IntN(900000))
			case "title":
				v = title
			}
			line = line[:i] + v + line[j+1:]
		}
	}
	var heads, feet []string
	for _, l := range headerLines {
		heads = append(heads, fill(l))
	}
	for _, l := range footerLines {
		feet = append(feet, fill(l))
	}
	rng.Shuffle(len(heads), func(i, j int) { heads[i], heads[j] = heads[j], heads[i] })
	rng.Shuffle(len(feet), func(i, j int) { feet[i], feet[j] = feet[j], feet[i] })

	target := minBoilerplateRunes + rng.IntN(maxBoilerplateRunes-minBoilerplateRunes+1)
	total := 0
	add := func(list *[]string, from *[]string) {
		for len(*from) > 0 {
			l := (*from)[0]
			*from = (*from)[1:]
			if r := utf8.RuneCountInString(l); total+r <= maxBoilerplateRunes {
				*list = append(*list, l)
				total += r
				return
			}
		}
	}
	add(&header, &heads)
	add(&footer, &feet)
	for total < target && (len(heads) > 0 || len(feet) > 0) {
		if rng.IntN(3) == 0 {
			add(&header, &heads)
		} else {
			add(&footer, &feet)
		}
	}
	return header, footer
}
