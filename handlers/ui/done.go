package ui

import (
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/newsdedup/newsdedup/service"
)

// The notice after a form. The form's handler redirects to the cluster
// with the id of the decision it recorded in a cookie (doneCookie) that
// the cluster's page reads once and clears; the notice is told from that
// decision as the cluster's record holds it. Nothing of it comes from the
// address, so a link cannot make the page announce what never happened.

const (
	doneCookie   = "newsdedup_done"
	doneLifetime = 5 * time.Minute
)

// done redirects to the cluster decision d was made in, to say what it did.
func done(c echo.Context, d service.Decision) error {
	setCookie(c, doneCookie, strconv.FormatInt(d.ID, 10), doneLifetime)
	return c.Redirect(http.StatusSeeOther, fmt.Sprintf("/ui/clusters/%d", d.ClusterID))
}

// doneMessage is the notice of the decision the done cookie names, once,
// and after a split that made a cluster, the address of that cluster: ""
// when there is none, or the cluster's record does not hold it.
func (l *locale) doneMessage(c echo.Context, view service.ClusterView) (notice, link string) {
	ck, err := c.Cookie(doneCookie)
	if err != nil || ck.Value == "" {
		return "", ""
	}
	setCookie(c, doneCookie, "", 0)
	id, err := strconv.ParseInt(ck.Value, 10, 64)
	if err != nil {
		return "", ""
	}
	for _, d := range view.Decisions {
		if d.ID == id && d.ClusterID == view.ID {
			if d.Action == service.ActionSplit && d.ArticleID != 0 && d.ArticleID != d.ClusterID {
				link = fmt.Sprintf("/ui/clusters/%d", d.ArticleID)
			}
			return l.decisionNotice(d), link
		}
	}
	return "", ""
}
