// Package uitest drives the editors' page (/ui/) in a real browser —
// Debian's chromium, through chromedp — against the real stack built in
// the test process: a fresh database (repo/dbtest), repo, service and
// handlers. It lives in the tools module so that the service's go.mod does
// not list a browser driver.
//
// Without chromium the test skips, saying how to install it; with
// NEWSDEDUP_REQUIRE_BROWSER=1 (CI sets it) it fails instead. It saves
// screenshots of the list and of a cluster into NEWSDEDUP_SCREENSHOTS (a
// folder; `make screenshots` gives docs/), or into a temporary folder it
// names in the log.
package uitest
