package fingerprint

import (
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// HTMLText returns the text a reader sees in an HTML document or fragment.
// The contents of <head>, <title>, <script>, <style>, <noscript> and
// <template>, and comments, never count. Block elements and <br> become line
// breaks, so words in adjacent paragraphs or table cells never run together;
// inline elements (<b>, <a>, <span>) add nothing, so a word split by markup
// stays whole. Character references are decoded.
//
// It reads the input once with the x/net/html tokenizer, in linear time and
// without building a tree, so hostile markup (deep nesting, unclosed tags)
// costs no more than plain text of the same length.
func HTMLText(document string) string {
	z := html.NewTokenizer(strings.NewReader(document))
	var b strings.Builder
	b.Grow(len(document) / 2)
	skipping := atom.Atom(0) // the element whose contents are being skipped
	inHead := false
	for {
		tt := z.Next()
		switch tt {
		case html.ErrorToken:
			return b.String() // io.EOF: the tokenizer reports no other error for a string
		case html.TextToken:
			if skipping == 0 && !inHead {
				b.Write(z.Text())
			}
		case html.StartTagToken, html.SelfClosingTagToken:
			name, _ := z.TagName()
			a := atom.Lookup(name)
			selfClosing := tt == html.SelfClosingTagToken
			switch {
			case skipping != 0:
			case a == atom.Head && !selfClosing:
				inHead = true
			case a == atom.Body:
				inHead = false // a <body> ends an unclosed <head>
			case skippedElements[a]: // browsers ignore "/>" on these: <script/> opens a script
				skipping = a
			case blockElements[a]:
				b.WriteByte('\n')
			}
		case html.EndTagToken:
			name, _ := z.TagName()
			a := atom.Lookup(name)
			switch {
			case skipping != 0:
				if a == skipping {
					skipping = 0
				}
			case a == atom.Head:
				inHead = false
			case blockElements[a]:
				b.WriteByte('\n')
			}
		}
	}
}

// skippedElements hold text no reader sees.
var skippedElements = map[atom.Atom]bool{
	atom.Script: true, atom.Style: true, atom.Title: true, atom.Noscript: true,
	atom.Template: true,
}

// blockElements start on a new line in a browser.
var blockElements = map[atom.Atom]bool{
	atom.Address: true, atom.Article: true, atom.Aside: true, atom.Blockquote: true,
	atom.Br: true, atom.Caption: true, atom.Dd: true, atom.Details: true, atom.Div: true,
	atom.Dl: true, atom.Dt: true, atom.Fieldset: true, atom.Figcaption: true,
	atom.Figure: true, atom.Footer: true, atom.Form: true, atom.H1: true, atom.H2: true,
	atom.H3: true, atom.H4: true, atom.H5: true, atom.H6: true, atom.Header: true,
	atom.Hr: true, atom.Li: true, atom.Main: true, atom.Nav: true, atom.Ol: true,
	atom.P: true, atom.Pre: true, atom.Section: true, atom.Summary: true, atom.Table: true,
	atom.Td: true, atom.Th: true, atom.Tr: true, atom.Ul: true,
}
