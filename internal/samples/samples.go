// Package samples holds short Chinese news stories written for this
// project's tests, measurements and screenshots — no third party's text —
// with the reposts a newsroom sees: a byline on top, an editor's line at the
// bottom, half-width punctuation, a sentence dropped. Its tests check that
// the service judges each repost a near duplicate of its story, and the
// stories unrelated to each other.
package samples

import (
	"strings"
)

// Story is an original article and its reposts.
type Story struct {
	Title string
	Body  string // the original, as its source published it
}

// Stories are the originals, each about something else: three paragraphs
// of a few sentences each, as agencies write them.
var Stories = []Story{
	{
		Title: "长江中下游启动洪水防御四级应急响应",
		Body: "据水利部消息，受持续强降雨影响，长江中下游干流及洞庭湖、鄱阳湖水位持续上涨，多个水文站超过警戒水位。" +
			"水利部于6月18日12时针对江西、湖南、安徽三省启动洪水防御四级应急响应，并派出三个工作组赴一线指导防汛工作。\n" +
			"气象部门预计，未来三天长江中下游仍将有大到暴雨，局地大暴雨，累计降雨量可达一百至一百八十毫米。" +
			"部分中小河流可能发生超警洪水，山洪和地质灾害风险较高，城市低洼地区可能出现积涝。\n" +
			"水利部要求各地加强水库调度和堤防巡查，严格落实防汛责任制，提前转移危险区域群众，确保人民群众生命安全。" +
			"目前，三省已组织抢险队伍两千余人、调运防汛物资一批，沿江各地正在加密巡堤查险。",
	},
	{
		Title: "城市轨道交通七号线全线开通运营",
		Body: "本市轨道交通七号线今天上午九时全线开通运营，线路全长四十二公里，共设车站二十八座，其中换乘站九座。" +
			"七号线贯穿城市南北，连接高铁东站、会展中心和大学城，是城市轨道交通网络的骨干线路之一。\n" +
			"据介绍，七号线采用全自动无人驾驶技术，列车最高运行速度每小时一百公里。" +
			"开通后，沿线居民到市中心的通勤时间预计平均缩短二十分钟，高铁东站与会展中心之间最快二十五分钟可达。\n" +
			"运营初期，列车最小行车间隔为四分三十秒，首班车六时发出，末班车二十三时发出。" +
			"地铁运营公司提醒乘客，开通首周客流较大，请合理安排出行时间，文明乘车，主动配合安检。",
	},
	{
		Title: "第五届数字经济博览会闭幕 签约项目总额创新高",
		Body: "为期四天的第五届数字经济博览会今天下午闭幕。本届博览会共吸引来自三十多个国家和地区的一千二百余家企业参展，" +
			"累计接待观众二十六万人次，线上参与人数超过一千万。\n" +
			"博览会期间，现场签约项目一百五十六个，签约总额超过八百亿元，创历届新高。" +
			"人工智能、工业互联网和智慧医疗成为最受关注的领域，多家企业发布了自主研发的大模型、工业软件和服务机器人产品。\n" +
			"组委会表示，下一届博览会将进一步扩大国际展区规模，增设中小企业对接专场，并首次设立数据要素交易专区。" +
			"闭幕式上还发布了数字经济发展指数报告，报告显示本地区数字经济核心产业增加值同比增长百分之十二。",
	},
	{
		Title: "市场监管部门开展夏季食品安全专项检查",
		Body: "为保障夏季食品安全，市市场监督管理局自本月起在全市范围内开展为期两个月的食品安全专项检查。" +
			"检查重点包括农贸市场、学校食堂、网络订餐平台和冷饮生产企业。\n" +
			"执法人员将重点查处超范围使用食品添加剂、销售过期变质食品、冷链储存不规范等违法行为，" +
			"对网络订餐平台入网商家的证照和后厨卫生情况逐一核查。\n" +
			"截至目前，执法人员已检查各类食品经营单位两千三百余家，责令整改一百一十二家，立案查处十九起，" +
			"下架不合格冷饮产品四批次。市场监管部门提醒消费者，购买食品时应查看生产日期和保质期，发现问题可拨打投诉举报电话。",
	},
}

// Byline is a repost's line on top, in the form portals copy agencies with.
const Byline = "新华社北京6月18日电（记者 李明）"

// EditorLine is a repost's line at the bottom.
const EditorLine = "（责任编辑：王芳）"

// Repost is a story as a portal copies it: a byline on top, an editor's
// line at the bottom, and half-width punctuation.
func (s Story) Repost() string {
	r := strings.NewReplacer("，", ",", "。", ".", "、", ",")
	return Byline + "\n" + r.Replace(s.Body) + "\n" + EditorLine
}

// Shortened is the story without the last clause of its last sentence: a
// less complete copy.
func (s Story) Shortened() string {
	body := strings.TrimSuffix(s.Body, "。")
	if i := strings.LastIndex(body, "，"); i >= 0 {
		return body[:i] + "。"
	}
	return s.Body
}

// Hostile is a repost whose first lines, which the fingerprint leaves out
// as a byline would be, try to inject markup into whatever shows them.
func (s Story) Hostile() string {
	return HostileLines + "\n" + s.Body
}

// HostileLines try to break out of an attribute and to run script. A page
// that shows them as text is safe; one that runs them sets window.__pwned.
const HostileLines = `"><img src=x onerror=window.__pwned=1>` + "\n" + `<script>window.__pwned=1</script>`

// HostileTitle is a title that tries the same.
const HostileTitle = `<script>window.__pwned=1</script>"><img src=x onerror=alert(1)>洪水`
