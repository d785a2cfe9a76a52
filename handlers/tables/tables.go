// Package tables writes a list as a download: CSV (UTF-8 with a BOM, so
// that Excel reads Chinese right) as the rows come, or an .xlsx sheet
// (excelize's stream writer). The API and the editors' page share it.
package tables

import (
	"bufio"
	"encoding/csv"
	"fmt"
	"mime"
	"net/http"
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

// Table writes a list as a download, row by row: CSV as the rows come
// (UTF-8 with a BOM, so that Excel reads Chinese right), or one .xlsx
// sheet through excelize's stream writer, sent when it is closed.
type Table struct {
	format string
	w      *bufio.Writer
	csv    *csv.Writer
	xlsx   *excelize.File
	sheet  *excelize.StreamWriter
	rows   int
	resp   *echo.Response
}

// New starts a download named name (without extension) with header.
func New(c echo.Context, format, name string, header []string) (*Table, error) {
	t := &Table{format: format, resp: c.Response()}
	h := t.resp.Header()
	h.Set(echo.HeaderContentDisposition, fmt.Sprintf(`attachment; filename="%s.%s"`, name, format))
	switch format {
	case CSV:
		h.Set(echo.HeaderContentType, mimeCSV+"; charset=utf-8")
		t.resp.WriteHeader(http.StatusOK)
		t.w = bufio.NewWriterSize(t.resp, 32<<10)
		t.w.WriteString("\uFEFF")
		t.csv = csv.NewWriter(t.w)
	case XLSX:
		t.xlsx = excelize.NewFile()
		sw, err := t.xlsx.NewStreamWriter("Sheet1")
		if err != nil {
			return nil, err
		}
		t.sheet = sw
	}
	cells := make([]any, len(header))
	for i, v := range header {
		cells[i] = v
	}
	return t, t.Row(cells...)
}

// Row writes one row; cells are strings, integers, floats or times
// already formatted by the caller as strings.
func (t *Table) Row(cells ...any) error {
	t.rows++
	if t.csv != nil {
		rec := make([]string, len(cells))
		for i, v := range cells {
			rec[i] = fmt.Sprint(v)
		}
		return t.csv.Write(rec)
	}
	cell, err := excelize.CoordinatesToCellName(1, t.rows)
	if err != nil {
		return err
	}
	return t.sheet.SetRow(cell, cells)
}

// Close finishes the download. A CSV's rows are already on their way; an
// .xlsx is written now.
func (t *Table) Close() error {
	if t.csv != nil {
		t.csv.Flush()
		if err := t.csv.Error(); err != nil {
			return err
		}
		return t.w.Flush()
	}
	defer t.xlsx.Close()
	if err := t.sheet.Flush(); err != nil {
		return err
	}
	t.resp.Header().Set(echo.HeaderContentType, mimeXLSX)
	t.resp.WriteHeader(http.StatusOK)
	_, err := t.xlsx.WriteTo(t.resp)
	return err
}
