package report

import (
	"fmt"
	"strings"

	"github.com/robowatch/robowatch/findings"
)

// maxAINames bounds the robots a note of aiNotes names.
const maxAINames = 8

// aiNotes are the robots section's lines on content-use preferences and AI
// discovery files, of every robot (not only the rows shown): none when no
// robot has any, so that reports of sites without them read as before.
func aiNotes(robots []findings.RobotSummary) []string {
	var prefs, disc []string
	more := func(list []string) []string {
		if len(list) > maxAINames {
			return append(list[:maxAINames:maxAINames], fmt.Sprintf("and %d more", len(list)-maxAINames))
		}
		return list
	}
	for i := range robots {
		b := &robots[i]
		if b.PreferenceConflicts > 0 {
			p := Escape(b.Name) + " (" + Escape(b.Purpose) + ") " + Exact(b.PreferenceConflicts) + noun(b.PreferenceConflicts, " page", " pages")
			if b.PreferenceRule != "" {
				p += " under " + Escape(b.PreferenceRule)
			}
			prefs = append(prefs, p)
		}
		if d := b.Discovery; d != nil {
			var what []string
			for _, f := range []struct {
				name string
				n    int64
			}{{"llms.txt", d.LLMsTxt}, {"llms-full.txt", d.LLMsFullTxt}, {"/.well-known/", d.WellKnown}} {
				if f.n > 0 {
					what = append(what, f.name+" "+Exact(f.n))
				}
			}
			disc = append(disc, Escape(b.Name)+" ("+strings.Join(what, ", ")+")")
		}
	}
	var notes []string
	if len(prefs) > 0 {
		notes = append(notes, "Content-use preferences (Content-Signal, Content-Usage): pages served that they decline to robots of the purpose: "+
			strings.Join(more(prefs), "; ")+". A preference, not a crawl rule: not counted as violations.")
	}
	if len(disc) > 0 {
		notes = append(notes, "AI discovery files fetched: "+strings.Join(more(disc), "; ")+".")
	}
	return notes
}
