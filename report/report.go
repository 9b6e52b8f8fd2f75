// Package report renders robowatch's findings as terminal tables, JSON, CSV
// and Markdown.
package report
