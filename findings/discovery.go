package findings

// Discovery counts a robot's fetches of the files sites publish for AI
// agents: /llms.txt, /llms-full.txt (llmstxt.org) and anything under
// /.well-known/ (RFC 8615).
type Discovery struct {
	LLMsTxt     int64 `json:"llms_txt"`
	LLMsFullTxt int64 `json:"llms_full_txt"`
	WellKnown   int64 `json:"well_known"`
}

// Add adds b to a.
func (a *Discovery) Add(b *Discovery) {
	a.LLMsTxt += b.LLMsTxt
	a.LLMsFullTxt += b.LLMsFullTxt
	a.WellKnown += b.WellKnown
}

// Total is the fetches counted.
func (a Discovery) Total() int64 { return a.LLMsTxt + a.LLMsFullTxt + a.WellKnown }
