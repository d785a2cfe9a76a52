package main

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// The lines a site puts around what it reposts: bylines, editor's lines,
// headers and footers of its pages. All are generic lines written for this
// evaluation, with invented sites and names; none comes from a corpus.

var (
	repostSurnames = []rune("赵钱孙李周吴郑王冯陈褚卫蒋沈韩杨朱秦尤许何吕施张孔曹严华金魏陶姜谢邹喻柏水窦章苏潘葛范彭鲁韦马方任袁柳唐罗薛雷贺倪汤")
	repostGiven    = []rune("一二三文武明亮清华春秋冬夏云雨晴雪山川江河海林森安宁平和嘉佳晓思远志新立德正信义勇敏慧")
	repostSites    = []string{"青禾资讯", "北辰快报网", "南湾在线", "长河新闻网", "晨星观察", "九州速递", "远山日报网", "海川头条", "云岭新闻", "白鹭资讯网"}
	repostApps     = []string{"青禾", "北辰快报", "长河新闻", "晨星", "九州速递", "海川头条"}
	repostCities   = []string{"北京", "上海", "天津", "重庆", "南宁", "兰州", "合肥", "贵阳", "太原", "哈尔滨", "厦门", "青岛"}
	repostSections = []string{"国内", "国际", "财经", "体育", "健康", "教育", "时尚", "科技", "社会"}
)

func pick[T any](rng *rand.Rand, list []T) T { return list[rng.IntN(len(list))] }

// personName is an invented name of two or three characters.
func personName(rng *rand.Rand) string {
	n := []rune{pick(rng, repostSurnames), pick(rng, repostGiven)}
	if rng.IntN(2) == 0 {
		n = append(n, pick(rng, repostGiven))
	}
	return string(n)
}

func monthDay(rng *rand.Rand) string {
	return fmt.Sprintf("%d月%d日", 1+rng.IntN(12), 1+rng.IntN(28))
}

// bylineLine is the line a repost starts with: who reports, from where.
func bylineLine(rng *rand.Rand) string {
	return fill(rng, pick(rng, []string{
		"{site}{city}{md}讯（记者 {name}）",
		"{site}{md}消息 记者{name} 通讯员{name}",
		"（{site}记者 {name} 发自{city}）",
		"文｜{name}　来源｜{site}",
		"{city}{md}电　{site}记者{name}",
	}))
}

// editorLine is the line a repost ends with: who edited it.
func editorLine(rng *rand.Rand) string {
	return fill(rng, pick(rng, []string{
		"（编辑：{name}）",
		"责任编辑 {name}",
		"编辑/{name}　审校/{name}",
		"（本文编辑：{name}　校对：{name}）",
		"值班编辑：{name}",
	}))
}

// Site chrome: header lines above an article, footer lines below it.
var (
	chromeHeaderLines = []string{
		"{site} > {section} > 正文",
		"来源：{site}　{year}年{md} {hm}",
		"作者：{name}　出品：{site}{section}频道",
		"打开{app}客户端，看更多{section}新闻",
		"{site}·{section}　阅读 {n}",
		"分享到：朋友圈 ｜ 微博 ｜ 复制链接",
		"本文转自{site}，标题有改动",
		"【{site}{section}】",
	}
	chromeFooterLines = []string{
		"本文由{site}编辑整理，仅供读者参考。",
		"想了解更多{section}资讯，欢迎关注{site}。",
		"未经{site}书面授权，任何单位和个人不得转载。",
		"网友评论仅代表个人看法，与{site}立场无关。",
		"查看上一篇 ｜ 查看下一篇 ｜ 返回{section}频道",
		"纠错邮箱：fix{n}@example.org",
		"返回顶部　收藏本文　我要投稿",
		"下载{app}客户端，{section}新闻早知道。",
		"文章来源于{site}，如有疑问请联系编辑部。",
		"点赞 ｜ 在看 ｜ 转发给朋友",
		"（{site}{section}频道 {year}年{md}）",
		"读者热线：{n}　{site}新闻中心",
	}
)

// fill replaces the {placeholders} of line: one site for the whole line.
func fill(rng *rand.Rand, line string) string {
	site := pick(rng, repostSites)
	var b strings.Builder
	for {
		i := strings.IndexByte(line, '{')
		if i < 0 {
			b.WriteString(line)
			return b.String()
		}
		j := i + strings.IndexByte(line[i:], '}')
		b.WriteString(line[:i])
		switch line[i+1 : j] {
		case "site":
			b.WriteString(site)
		case "app":
			b.WriteString(pick(rng, repostApps))
		case "city":
			b.WriteString(pick(rng, repostCities))
		case "section":
			b.WriteString(pick(rng, repostSections))
		case "name":
			b.WriteString(personName(rng))
		case "md":
			b.WriteString(monthDay(rng))
		case "year":
			fmt.Fprint(&b, 2018+rng.IntN(8))
		case "hm":
			fmt.Fprintf(&b, "%02d:%02d", rng.IntN(24), rng.IntN(60))
		case "n":
			fmt.Fprint(&b, 10000+rng.IntN(90000))
		}
		line = line[j+1:]
	}
}

// chrome returns one or two header lines and one or two footer lines of a
// site's pages.
func chrome(rng *rand.Rand) (header, footer []string) {
	for _, l := range pickDistinct(rng, chromeHeaderLines, 1+rng.IntN(2)) {
		header = append(header, fill(rng, l))
	}
	for _, l := range pickDistinct(rng, chromeFooterLines, 1+rng.IntN(2)) {
		footer = append(footer, fill(rng, l))
	}
	return header, footer
}

// Boilerplate length, in runes of the lines added.
const (
	minBoilerplateRunes = 100
	maxBoilerplateRunes = 300
)

// boilerplate returns header and footer lines of 100–300 runes in all, at
// least one of each.
func boilerplate(rng *rand.Rand) (header, footer []string) {
	heads := pickDistinct(rng, chromeHeaderLines, len(chromeHeaderLines))
	feet := pickDistinct(rng, chromeFooterLines, len(chromeFooterLines))
	target := minBoilerplateRunes + rng.IntN(maxBoilerplateRunes-minBoilerplateRunes+1)
	total := 0
	take := func(to *[]string, from *[]string) {
		for len(*from) > 0 {
			l := fill(rng, (*from)[0])
			*from = (*from)[1:]
			if r := len([]rune(l)); total+r <= maxBoilerplateRunes {
				*to = append(*to, l)
				total += r
				return
			}
		}
	}
	take(&header, &heads)
	take(&footer, &feet)
	for total < target && (len(heads) > 0 || len(feet) > 0) {
		if rng.IntN(2) == 0 && len(heads) > 0 || len(feet) == 0 {
			take(&header, &heads)
		} else {
			take(&footer, &feet)
		}
	}
	return header, footer
}

// pickDistinct returns n distinct items of list in random order.
func pickDistinct(rng *rand.Rand, list []string, n int) []string {
	out := append([]string(nil), list...)
	rng.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out[:min(n, len(out))]
}
