package service

import (
	"strings"
	"testing"
)

func TestCorrectedPassages(t *testing.T) {
	t.Parallel()
	old := "昨晚国足以1比4负于对手，主教练赛后表示将总结经验。\n球队下一场比赛在主场进行。"
	new := "昨晚国足以1比5负于对手，主教练赛后表示将总结经验。\n球队下一场比赛在主场进行。\n更正：比分有误，现已更正。"
	got := correctedPassages(old, new)
	if len(got) != 1 || got[0].Superseded != "昨晚国足以1比4负于对手，主教练" || got[0].Corrected != "昨晚国足以1比5负于对手，主教练" {
		t.Errorf("correctedPassages = %+v, want the score with its context, the note left out", got)
	}
	inserted := strings.Replace(old, "负于对手，", "负于对手（客场），", 1)
	if got := correctedPassages(old, inserted); len(got) != 1 || got[0].Superseded != "以1比4负于对手，主教练赛后表示" || got[0].Corrected != "以1比4负于对手（客场），主教练赛后表示" {
		t.Errorf("correctedPassages of an insertion = %+v, want it with its context", got)
	}
	if got := correctedPassages(old, old); len(got) != 0 {
		t.Errorf("correctedPassages of the same text = %+v, want none", got)
	}
}
