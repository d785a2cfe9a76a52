// Package tables writes a list as a download: CSV (UTF-8 with a BOM, so
// that Excel reads Chinese right) or an .xlsx sheet (excelize's stream
// writer), cut at service.MaxExportRows and saying so (a last row and a
// header). The API and the editors' page share it.
package tables

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"mime"
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"
	"github.com/xuri/excelize/v2"

	"github.com/newsdedup/newsdedup/service"
)

// The download formats of a list.
const (
	JSON = ""
	CSV  = "csv"
	XLSX = "xlsx"

	mimeCSV  = "text/csv"
	mimeXLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
)

// FormatOf is what a list is asked for as: ?format=csv|xlsx, else
// Accept: text/csv (or the xlsx type), else JSON.
func FormatOf(c echo.Context) (string, error) {
	switch f := c.QueryParam("format"); f {
	case "csv", "xlsx":
		return f, nil
	case "", "json":
	default:
		return "", service.Invalid("format", "must be json, csv or xlsx, not %q", f)
	}
	for _, part := range strings.Split(c.Request().Header.Get(echo.HeaderAccept), ",") {
		t, _, err := mime.ParseMediaType(strings.TrimSpace(part))
		if err != nil {
			continue
		}
		switch t {
		case mimeCSV:
			return CSV, nil
		case mimeXLSX:
			return XLSX, nil
		}
	}
	return JSON, nil
}

// TruncatedHeader is the response header an export cut at
// service.MaxExportRows carries ("true"); RowsHeader gives the rows sent.
const (
	TruncatedHeader = "X-Newsdedup-Truncated"
	RowsHeader      = "X-Newsdedup-Rows"
	// TruncatedMark begins the last row of a cut file (its first cell), so
	// that a reader of the file alone sees it is not the whole list.
	TruncatedMark = "#truncated"
)

// Table writes a list as a download, row by row, as CSV (UTF-8 with a
// BOM, so that Excel reads Chinese right) or one .xlsx sheet through
// excelize's stream writer. Nothing is sent before Close: a cut must be
// said in a header, and a query failing half-way is then an error answer
// rather than a short file. The rows are bounded by service.MaxExportRows,
// so the buffer is too (a few MB).
type Table struct {
	format string
	cols   int
	buf    bytes.Buffer
	csv    *csv.Writer
	xlsx   *excelize.File
	sheet  *excelize.StreamWriter
	rows   int // written, the header included
	cut    bool
	resp   *echo.Response
	name   string
}

// New starts a download named name (without extension) with header.
func New(c echo.Context, format, name string, header []string) (*Table, error) {
	t := &Table{format: format, resp: c.Response(), cols: len(header), name: name}
	switch format {
	case CSV:
		t.buf.WriteString("\uFEFF")
		t.csv = csv.NewWriter(&t.buf)
	case XLSX:
		t.xlsx = excelize.NewFile()
		sw, err := t.xlsx.NewStreamWriter("Sheet1")
		if err != nil {
			return nil, err
		}
		t.sheet = sw
	default:
		return nil, fmt.Errorf("tables: format %q", format)
	}
	cells := make([]any, len(header))
	for i, v := range header {
		cells[i] = v
	}
	return t, t.Row(cells...)
}

// Row writes one row; cells are strings, integers, floats, booleans or
// times already formatted by the caller as strings.
func (t *Table) Row(cells ...any) error {
	t.rows++
	if t.csv != nil {
		rec := make([]string, len(cells))
		for i, v := range cells {
			if s, ok := v.(string); ok {
				rec[i] = inert(s)
			} else {
				rec[i] = fmt.Sprint(v)
			}
		}
		return t.csv.Write(rec)
	}
	cell, err := excelize.CoordinatesToCellName(1, t.rows)
	if err != nil {
		return err
	}
	return t.sheet.SetRow(cell, cells)
}

// Cut says the list had more than the rows written: Close adds a last row
// saying so and the header TruncatedHeader.
func (t *Table) Cut() { t.cut = true }

// cutNote is the second cell of the last row of a cut file.
const cutNote = "只导出了前 %d 行，还有更多：请缩小筛选范围 (only the first %d rows of more: narrow the filters)"

// Close sends the download.
func (t *Table) Close() error {
	data := t.rows - 1
	if t.cut {
		last := make([]any, t.cols)
		for i := range last {
			last[i] = ""
		}
		last[0] = TruncatedMark
		if t.cols > 1 {
			last[1] = fmt.Sprintf(cutNote, data, data)
		}
		if err := t.Row(last...); err != nil {
			return err
		}
	}
	h := t.resp.Header()
	h.Set(echo.HeaderContentDisposition, fmt.Sprintf(`attachment; filename="%s.%s"`, t.name, t.format))
	h.Set(RowsHeader, strconv.Itoa(data))
	if t.cut {
		h.Set(TruncatedHeader, "true")
	}
	if t.csv != nil {
		t.csv.Flush()
		if err := t.csv.Error(); err != nil {
			return err
		}
		h.Set(echo.HeaderContentType, mimeCSV+"; charset=utf-8")
		h.Set(echo.HeaderContentLength, strconv.Itoa(t.buf.Len()))
		t.resp.WriteHeader(http.StatusOK)
		_, err := t.resp.Write(t.buf.Bytes())
		return err
	}
	defer t.xlsx.Close()
	if err := t.sheet.Flush(); err != nil {
		return err
	}
	h.Set(echo.HeaderContentType, mimeXLSX)
	t.resp.WriteHeader(http.StatusOK)
	_, err := t.xlsx.WriteTo(t.resp)
	return err
}

// inert keeps a CSV cell from being read as a formula by a spreadsheet
// (OWASP's "CSV injection"): an article's title or source beginning with
// = + - @ or a tab or carriage return gets a leading apostrophe, which
// Excel hides. The .xlsx holds strings as strings and needs none.
func inert(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return "'" + s
	}
	return s
}
