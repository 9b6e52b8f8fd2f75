// Command rangehistory writes the histories of the published crawler
// address lists robowatch embeds (agents/ranges/*.history.tsv): every
// prefix of each list with the first and last dates a list held it. It is
// run by agents/ranges/refresh.sh, never by builds or tests.
//
//	rangehistory -out DIR [-cloud-ips GITDIR] [-ipverse GITDIR]
//
// With -cloud-ips or -ipverse, the histories of those sources are built
// anew from every commit of the given clones (bare or not) of
// github.com/jonhadfield/cloud-ips and github.com/ipverse/bot-ip-blocks:
// a Google file is dated by its creationTime, a collection by its commit.
// For a source not given, the snapshot in DIR (googlebot.json, …,
// ipverse-crawlers.json) is added to the history already in DIR. A list
// that answers with no prefixes is skipped while building and refused when
// adding, and so is one that shrank to less than half of the list before
// it: a source's failure never replaces a good list.
package main

import (
	"bufio"
	"cmp"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"maps"
	"net/netip"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
)

// googleFiles are the Google lists robowatch embeds, as cloud-ips names them.
var googleFiles = []string{"googlebot.json", "googlesc.json", "googleutf.json"}

const collection = "ipverse-crawlers.json"

func main() {
	out := flag.String("out", "", "the directory of the range files and their histories")
	cloudIPs := flag.String("cloud-ips", "", "a clone of github.com/jonhadfield/cloud-ips, to build Google's histories from")
	ipverse := flag.String("ipverse", "", "a clone of github.com/ipverse/bot-ip-blocks, to build the collection's history from")
	flag.Parse()
	if *out == "" || flag.NArg() > 0 {
		flag.Usage()
		os.Exit(2)
	}
	if err := run(*out, *cloudIPs, *ipverse); err != nil {
		fmt.Fprintln(os.Stderr, "rangehistory:", err)
		os.Exit(1)
	}
}

func run(out, cloudIPs, ipverse string) error {
	type job struct {
		file string
		h    *history
	}
	var jobs []job
	for _, f := range googleFiles {
		h, err := google(out, cloudIPs, f)
		if err != nil {
			return err
		}
		jobs = append(jobs, job{f, h})
	}
	h, err := collectionHistory(out, ipverse)
	if err != nil {
		return err
	}
	jobs = append(jobs, job{collection, h})
	// Written only when every history is good: a failed source leaves
	// all as they were.
	for _, j := range jobs {
		name := filepath.Join(out, strings.TrimSuffix(j.file, ".json")+".history.tsv")
		if err := os.WriteFile(name, j.h.encode(j.file), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// google builds or extends the history of one of Google's files.
func google(out, clone, file string) (*history, error) {
	if clone == "" {
		h, err := readHistory(out, file)
		if err != nil {
			return nil, err
		}
		b, err := os.ReadFile(filepath.Join(out, file))
		if err != nil {
			return nil, err
		}
		date, pfx, err := parseGoogle(b)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", file, err)
		}
		return h, h.add(file, date, pfx, true)
	}
	h := &history{lists: map[string]*list{}}
	commits, err := git(clone, "log", "--reverse", "--format=%H", "--", file)
	if err != nil {
		return nil, err
	}
	for _, c := range strings.Fields(commits) {
		b, err := git(clone, "show", c+":"+file)
		if err != nil {
			continue // a commit that deleted the file
		}
		date, pfx, err := parseGoogle([]byte(b))
		if err != nil {
			continue // a day Google answered without prefixes
		}
		if err := h.add(file, date, pfx, false); err != nil {
			return nil, fmt.Errorf("%s at %s: %w", file, c, err)
		}
	}
	if len(h.lists) == 0 {
		return nil, fmt.Errorf("%s: no list in the history of %s", file, clone)
	}
	return h, nil
}

// collectionHistory builds or extends the history of ipverse's collection,
// one list a service.
func collectionHistory(out, clone string) (*history, error) {
	if clone == "" {
		h, err := readHistory(out, collection)
		if err != nil {
			return nil, err
		}
		b, err := os.ReadFile(filepath.Join(out, collection))
		if err != nil {
			return nil, err
		}
		services, err := parseCollection(b)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", collection, err)
		}
		date := ""
		for _, s := range services {
			date = max(date, s.changed)
		}
		for _, name := range slices.Sorted(maps.Keys(services)) {
			// The whole file is of one day: the latest change in it.
			if err := h.add(name, date, services[name].prefixes, true); err != nil {
				return nil, fmt.Errorf("%s: %w", collection, err)
			}
		}
		return h, nil
	}
	h := &history{lists: map[string]*list{}}
	log, err := git(clone, "log", "--reverse", "--format=%H %cs", "--", "crawlers.json")
	if err != nil {
		return nil, err
	}
	for line := range strings.Lines(log) {
		c, date, _ := strings.Cut(strings.TrimSpace(line), " ")
		b, err := git(clone, "show", c+":crawlers.json")
		if err != nil {
			continue
		}
		services, err := parseCollection([]byte(b))
		if err != nil {
			continue
		}
		for _, name := range slices.Sorted(maps.Keys(services)) {
			if err := h.add(name, date, services[name].prefixes, false); err != nil {
				return nil, fmt.Errorf("crawlers.json at %s: %w", c, err)
			}
		}
	}
	if len(h.lists) == 0 {
		return nil, fmt.Errorf("crawlers.json: no list in the history of %s", clone)
	}
	return h, nil
}

func git(dir string, args ...string) (string, error) {
	b, err := exec.Command("git", append([]string{"-C", dir}, args...)...).Output()
	if err != nil {
		return "", fmt.Errorf("git -C %s %s: %w", dir, strings.Join(args, " "), err)
	}
	return string(b), nil
}

// parseGoogle reads Google's shape: its date (the creationTime's day) and
// its prefixes.
func parseGoogle(b []byte) (string, []string, error) {
	var doc struct {
		CreationTime string `json:"creationTime"`
		Prefixes     []struct {
			IPv4 string `json:"ipv4Prefix"`
			IPv6 string `json:"ipv6Prefix"`
		} `json:"prefixes"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		return "", nil, err
	}
	if len(doc.CreationTime) < 10 || len(doc.Prefixes) == 0 {
		return "", nil, errors.New("no creationTime or no prefixes")
	}
	var out []string
	for _, p := range doc.Prefixes {
		out = append(out, p.IPv4+p.IPv6)
	}
	return doc.CreationTime[:10], out, nil
}

type service struct {
	changed  string
	prefixes []string
}

// parseCollection reads ipverse's collection, in its shape since April
// 2026 ("services") or its first ("providers").
func parseCollection(b []byte) (map[string]service, error) {
	type entry struct {
		Changed string   `json:"last_changed_at"`
		IPv4    []string `json:"ipv4"`
		IPv6    []string `json:"ipv6"`
	}
	var doc struct {
		Services  map[string]entry `json:"services"`
		Providers map[string]entry `json:"providers"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		return nil, err
	}
	all := doc.Services
	if all == nil {
		all = doc.Providers
	}
	if len(all) == 0 {
		return nil, errors.New("no services")
	}
	out := map[string]service{}
	for name, e := range all {
		p := append(slices.Clip(e.IPv4), e.IPv6...)
		if len(p) == 0 {
			continue // a fetch that failed upstream
		}
		changed := ""
		if len(e.Changed) >= 10 {
			changed = e.Changed[:10]
		}
		out[name] = service{changed, p}
	}
	return out, nil
}

// A history is the lists of one file, by name.
type history struct {
	lists map[string]*list
}

// A list is one operator list over time.
type list struct {
	since, until string // the days of its earliest and latest lists
	lists        int    // on how many days a copy was read
	size         int    // prefixes in the latest
	spans        []span
}

// A span is a prefix the list held from first to last, days.
type span struct {
	prefix      netip.Prefix
	first, last string
}

// add appends the list of date to the history. strict refuses a list that
// shrank to less than half of the one before (refresh.sh); building from a
// collection's history takes what was published.
func (h *history) add(name, date string, prefixes []string, strict bool) error {
	var pfx []netip.Prefix
	for _, s := range prefixes {
		p, err := netip.ParsePrefix(strings.TrimSpace(s))
		if err != nil {
			return fmt.Errorf("list %s: %q is not a CIDR network", name, s)
		}
		pfx = append(pfx, p.Masked())
	}
	slices.SortFunc(pfx, comparePrefix)
	pfx = slices.Compact(pfx)
	l := h.lists[name]
	if l == nil {
		l = &list{since: date}
		h.lists[name] = l
	}
	switch {
	case len(pfx) == 0:
		return fmt.Errorf("list %s of %s holds no prefix; nothing replaced", name, date)
	case strict && 2*len(pfx) < l.size:
		return fmt.Errorf("list %s of %s holds %d prefixes, the one of %s %d: a partial answer; nothing replaced", name, date, len(pfx), l.until, l.size)
	case date < l.until:
		return nil // an older copy than the history holds
	}
	open := map[netip.Prefix]int{} // the prefixes the latest list held
	for i, s := range l.spans {
		if s.last == l.until {
			open[s.prefix] = i
		}
	}
	for _, p := range pfx {
		if i, ok := open[p]; ok {
			l.spans[i].last = date
		} else {
			l.spans = append(l.spans, span{p, date, date})
		}
	}
	if date == l.until && l.lists > 0 {
		// Another list of the same day: both were published that day.
		l.size = max(l.size, len(pfx))
		return nil
	}
	l.until, l.size = date, len(pfx)
	l.lists++
	return nil
}

func comparePrefix(a, b netip.Prefix) int {
	return cmp.Or(a.Addr().Compare(b.Addr()), cmp.Compare(a.Bits(), b.Bits()))
}

// encode writes the history: a header line a list ("= NAME\tSINCE\tUNTIL\tDAYS"),
// then its prefixes ("PREFIX\tFIRST\tLAST"), a prefix still in the latest
// list having LAST = UNTIL.
func (h *history) encode(file string) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s over time, written by agents/internal/rangehistory (agents/ranges/refresh.sh).\n", file)
	b.WriteString("# \"= LIST SINCE UNTIL DAYS\" opens a list: the days of its earliest and latest copies, and on how many days it was read;\n")
	b.WriteString("# then \"PREFIX FIRST LAST\": the first and last days a list held it (LAST = UNTIL: still published).\n")
	for _, name := range slices.Sorted(maps.Keys(h.lists)) {
		l := h.lists[name]
		fmt.Fprintf(&b, "= %s\t%s\t%s\t%d\n", name, l.since, l.until, l.lists)
		slices.SortFunc(l.spans, func(x, y span) int {
			return cmp.Or(comparePrefix(x.prefix, y.prefix), strings.Compare(x.first, y.first))
		})
		for _, s := range l.spans {
			fmt.Fprintf(&b, "%s\t%s\t%s\n", s.prefix, s.first, s.last)
		}
	}
	return []byte(b.String())
}

// readHistory reads the history of file in dir, empty if there is none.
func readHistory(dir, file string) (*history, error) {
	h := &history{lists: map[string]*list{}}
	f, err := os.Open(filepath.Join(dir, strings.TrimSuffix(file, ".json")+".history.tsv"))
	if errors.Is(err, os.ErrNotExist) {
		return h, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var l *list
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if line == "" || line[0] == '#' {
			continue
		}
		f := strings.Split(strings.TrimPrefix(line, "= "), "\t")
		switch {
		case strings.HasPrefix(line, "= ") && len(f) == 4:
			l = &list{since: f[1], until: f[2]}
			fmt.Sscan(f[3], &l.lists)
			h.lists[f[0]] = l
		case l != nil && len(f) == 3:
			p, err := netip.ParsePrefix(f[0])
			if err != nil {
				return nil, fmt.Errorf("%s line %d: %w", f[0], n, err)
			}
			l.spans = append(l.spans, span{p, f[1], f[2]})
			if f[2] == l.until {
				l.size++
			}
		default:
			return nil, fmt.Errorf("%s history line %d: %q is not a list or a prefix", file, n, line)
		}
	}
	return h, sc.Err()
}
