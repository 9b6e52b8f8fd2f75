package report

import (
	"bufio"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/robowatch/robowatch/findings"
)

// BlockFormats are the outputs that write a block list of the selected
// clients instead of a report.
var BlockFormats = []string{"ips", "nginx", "apache", "nftables"}

// BlockOptions say what a block list holds and, for nftables, where it
// goes.
type BlockOptions struct {
	findings.BlockOptions
	NFTTable string // the nftables table (family inet); "" means "robowatch"
	NFTHook  string // the hook of its chain: input (the default) or prerouting, forward
}

// WriteBlock writes the block list of r in format (one of BlockFormats) and
// returns the selected clients that had no IP address (host names or
// garbage), which the caller names on stderr.
//
// Only netip values and robowatch's own words reach the file: a comment
// about a client says its name, which a User-agent chose, so it is cut to
// a safe alphabet (see commentText). A list with nothing selected is still
// a valid file, with its header.
//
// The run's trusted proxies (r.Options) are never listed, whoever made the
// report: where the log names no client their requests stay theirs, and
// denying one denies everyone behind it. A merge of parts knows them only
// from the parts' options.
func WriteBlock(w io.Writer, format string, r *Report, opt BlockOptions) ([]string, error) {
	proxies, err := r.Options.proxies()
	if err != nil {
		return nil, err
	}
	opt.Allow = slices.Concat(opt.Allow, proxies)
	bl := r.Result.BlockList(opt.BlockOptions)
	list, skipped, internal := bl.Offenders, bl.Skipped, bl.Internal
	bw := bufio.NewWriter(w)
	header := blockHeader(r, opt, len(list))
	if bl.Shared > 0 {
		// The admin who misses a robot's address reads why here: a list
		// that denied it would deny people too.
		header = append(header, Count(int64(bl.Shared))+noun(int64(bl.Shared),
			" address left out: it also served clients judged human (a NAT, a proxy, a shared host); denying it would deny them",
			" addresses left out: each also served clients judged human (a NAT, a proxy, a shared host); denying one would deny them"))
	}
	if bl.PeopleNetworks > 0 {
		header = append(header, Count(int64(bl.PeopleNetworks))+noun(int64(bl.PeopleNetworks),
			" network is listed address by address, not whole: clients judged human were seen in it",
			" networks are listed address by address, not whole: clients judged human were seen in them"))
	}
	if len(internal) > 0 {
		header = append(header, fmt.Sprintf("Left out, internal or reserved addresses and CDN edges (the server itself, a balancer, a health check, a CDN that carries everyone's requests, or no host's): %s; deny one by hand if it is meant", strings.Join(internal, ", ")))
	}
	comment := func(prefix string, o *findings.Offender) {
		fmt.Fprintf(bw, "%s%s\n", prefix, offenderComment(o))
	}
	switch format {
	case "ips":
		writeLines(bw, "# ", header)
		for i := range list {
			comment("# ", &list[i])
			fmt.Fprintf(bw, "%s\n", prefixText(&list[i]))
		}
	case "nginx":
		writeLines(bw, "# ", header)
		writeLines(bw, "# ", []string{"Include in an http, server or location block: include /etc/nginx/robowatch-deny.conf;"})
		for i := range list {
			comment("# ", &list[i])
			fmt.Fprintf(bw, "deny %s;\n", prefixText(&list[i]))
		}
	case "apache":
		writeLines(bw, "# ", header)
		writeLines(bw, "# ", []string{
			"Include inside a <RequireAll> block that also says Require all granted:",
			"  <RequireAll>",
			"    Require all granted",
			"    Include /etc/apache2/robowatch-deny.conf",
			"  </RequireAll>",
		})
		for i := range list {
			comment("# ", &list[i])
			fmt.Fprintf(bw, "Require not ip %s\n", prefixText(&list[i]))
		}
	case "nftables":
		writeNFT(bw, header, list, opt)
	default:
		return nil, fmt.Errorf("unknown block list format %q (want %s)", format, strings.Join(BlockFormats, ", "))
	}
	return skipped, bw.Flush()
}

// blockHeader says what the list is, for the admin who finds the file a
// month later: what selected it, from which log and time span, and how many.
func blockHeader(r *Report, opt BlockOptions, n int) []string {
	first, last := r.span()
	lines := []string{
		"robowatch block list: " + selectionText(opt.Select),
		"from " + commentText(strings.Join(r.Files, " "), 200),
	}
	if !first.IsZero() {
		lines = append(lines, "log time "+first.UTC().Format(time.RFC3339)+" to "+last.UTC().Format(time.RFC3339))
	}
	lines = append(lines, Count(int64(n))+noun(int64(n), " entry", " entries"))
	if o := r.Result.Other; o.Robots > 0 {
		lines = append(lines, Count(o.Robots)+noun(o.Robots, " robot was", " robots were")+" folded into other (--max-clients, --expire) and cannot be listed")
	}
	if o := r.Result.Other; opt.Aggregate > 0 && (o.Requests > 0 || o.Clients > 0) {
		// The admin asked for networks and may find addresses: say why.
		lines = append(lines, "A network with clients folded into other is listed address by address, not whole: they may have been people")
	}
	return lines
}

func selectionText(s findings.Selection) string {
	t := s.String()
	if t == "" {
		return "nothing selected"
	}
	return commentText(t, 200)
}

func writeLines(w *bufio.Writer, prefix string, lines []string) {
	for _, l := range lines {
		fmt.Fprintf(w, "%s%s\n", prefix, l)
	}
}

// prefixText writes a single address without its /32 or /128, as every
// consumer reads it; a network as CIDR.
func prefixText(o *findings.Offender) string {
	if o.Prefix.IsSingleIP() {
		return o.Prefix.Addr().String()
	}
	return o.Prefix.String()
}

// offenderComment says who and why: "Scrapy: 24 robots.txt violations,
// 1 rapid-fire incident; 93 requests".
func offenderComment(o *findings.Offender) string {
	names := strings.Join(o.Names, ", ")
	if o.MoreNames {
		names += ", …"
	}
	s := names + ": " + strings.Join(o.Why, ", ")
	if o.Addresses > 1 {
		s += fmt.Sprintf("; %d addresses", o.Addresses)
	}
	s += "; " + Count(o.Requests) + noun(o.Requests, " request", " requests")
	return commentText(s, 300)
}

// commentText makes s safe inside a comment of any of the block formats:
// printable ASCII only, so no line end (which would end the comment), and
// none of '"', '\\', '`' and '$', which a quoted string or a shell pasting
// the line would read; at most max bytes. A name comes from a User-agent,
// and a newline in it would otherwise be a directive of the attacker's in
// the admin's nginx configuration.
func commentText(s string, max int) string {
	var b strings.Builder
	for _, r := range s {
		if b.Len() >= max {
			b.WriteString("...")
			break
		}
		switch {
		case r == '…':
			b.WriteString("...")
		case r < 0x20 || r >= 0x7f || r == '"' || r == '\\' || r == '`' || r == '$':
			b.WriteByte('?')
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// writeNFT writes a file for nft -f: a table of its own (replaced whole on
// each load, so a daily run never piles up) with an IPv4 and an IPv6 set
// and a chain that drops their traffic. It indents with spaces, as a
// report does: a tab is a control character to robowatch's own checks.
func writeNFT(w *bufio.Writer, header []string, list []findings.Offender, opt BlockOptions) {
	table, hook := opt.NFTTable, opt.NFTHook
	if table == "" {
		table = "robowatch"
	}
	if hook == "" {
		hook = "input"
	}
	fmt.Fprintf(w, "#!/usr/sbin/nft -f\n")
	writeLines(w, "# ", header)
	writeLines(w, "# ", []string{"Load with: nft -f FILE (replaces the table inet " + table + " of an earlier load)"})
	// "table" then "delete table": the delete never fails, whether or not
	// an earlier load made the table.
	fmt.Fprintf(w, "table inet %s\ndelete table inet %s\n\ntable inet %s {\n", table, table, table)
	for _, fam := range []struct {
		set, typ string
		v4       bool
	}{{"blocked4", "ipv4_addr", true}, {"blocked6", "ipv6_addr", false}} {
		fmt.Fprintf(w, "    set %s {\n        type %s\n        flags interval\n", fam.set, fam.typ)
		var entries []*findings.Offender
		for i := range list {
			if list[i].Prefix.Addr().Is4() == fam.v4 {
				entries = append(entries, &list[i])
			}
		}
		if len(entries) > 0 {
			fmt.Fprintf(w, "        elements = {\n")
			for i, o := range entries {
				sep := ","
				if i == len(entries)-1 {
					sep = ""
				}
				fmt.Fprintf(w, "            %s%s # %s\n", prefixText(o), sep, offenderComment(o))
			}
			fmt.Fprintf(w, "        }\n")
		}
		fmt.Fprintf(w, "    }\n\n")
	}
	fmt.Fprintf(w, "    chain drop_blocked {\n        type filter hook %s priority filter - 10; policy accept;\n", hook)
	fmt.Fprintf(w, "        ip saddr @blocked4 drop\n        ip6 saddr @blocked6 drop\n    }\n}\n")
}
