package detect

import "github.com/robowatch/robowatch/findings"

// TEMPORARY: the result types moved to package findings (issue 32); these
// aliases keep detect's files compiling until their references are renamed.
type (
	Result          = findings.Result
	Panels          = findings.Panels
	Verdict         = findings.Verdict
	Peak            = findings.Peak
	Incident        = findings.Incident
	StatusMix       = findings.StatusMix
	Violation       = findings.Violation
	RobotSummary    = findings.RobotSummary
	PrefixCount     = findings.PrefixCount
	ClientList      = findings.ClientList
	ViolationList   = findings.ViolationList
	PathCount       = findings.PathCount
	StatusCounts    = findings.StatusCounts
	Conduct         = findings.Conduct
	Served          = findings.Served
	ClientEdge      = findings.ClientEdge
	EdgeRobots      = findings.EdgeRobots
	EdgeBackoff     = findings.EdgeBackoff
	Events          = findings.Events
	Live            = findings.Live
	LiveRobot       = findings.LiveRobot
	ClientTimeline  = findings.ClientTimeline
	MinuteCount     = findings.MinuteCount
	Fetch           = findings.Fetch
	Request         = findings.Request
	NetworkSummary  = findings.NetworkSummary
	OperatorSummary = findings.OperatorSummary
	Discovery       = findings.Discovery
	Timeline        = findings.Timeline
	RobotTimeline   = findings.RobotTimeline
	RobotBuckets    = findings.RobotBuckets
	Other           = findings.Other
	Shard           = findings.Shard
	Selection       = findings.Selection
	BlockOptions    = findings.BlockOptions
	Offender        = findings.Offender
	BlockList       = findings.BlockList
	foldedNetworks  = findings.FoldedNetworks
)

// TEMPORARY, as the type aliases above.
const (
	IdentityVerified   = findings.IdentityVerified
	IdentityImpostor   = findings.IdentityImpostor
	IdentityUnverified = findings.IdentityUnverified

	ReasonRobotsTxt = findings.ReasonRobotsTxt
	ReasonRate      = findings.ReasonRate
	ReasonUserAgent = findings.ReasonUserAgent
	ReasonBehaviour = findings.ReasonBehaviour
	ReasonScanner   = findings.ReasonScanner

	KindScanner = findings.KindScanner
	KindJunk    = findings.KindJunk
	KindServer  = findings.KindServer

	FindingIgnored     = findings.FindingIgnored
	FindingNeverRead   = findings.FindingNeverRead
	FindingReadLate    = findings.FindingReadLate
	FindingObeyed      = findings.FindingObeyed
	FindingObeyedPaths = findings.FindingObeyedPaths
	FindingUnread      = findings.FindingUnread
	FindingNotComputed = findings.FindingNotComputed
	FindingUnreachable = findings.FindingUnreachable

	ComplianceObeyed         = findings.ComplianceObeyed
	ComplianceIgnored        = findings.ComplianceIgnored
	ComplianceUnreadViolated = findings.ComplianceUnreadViolated
	ComplianceUnread         = findings.ComplianceUnread
	ComplianceUnchecked      = findings.ComplianceUnchecked
	ComplianceUnreachable    = findings.ComplianceUnreachable

	EdgeViolating   = findings.EdgeViolating
	EdgeDelayed     = findings.EdgeDelayed
	EdgeFast        = findings.EdgeFast
	EdgeRobotsTxt   = findings.EdgeRobotsTxt
	EdgeUnreachable = findings.EdgeUnreachable
	EdgeOpensRobots = findings.EdgeOpensRobots

	VerdictHuman      = findings.VerdictHuman
	SessionGap        = findings.SessionGap
	backoffWindow     = findings.BackoffWindow
	TopRobotTimelines = findings.TopRobotTimelines
	TopPathsKept      = findings.TopPathsKept
)

// TEMPORARY, as the type aliases above: what cli calls by its old name.
var (
	ParseShard       = findings.ParseShard
	ShardOf          = findings.ShardOf
	ParseSelection   = findings.ParseSelection
	DefaultSelection = findings.DefaultSelection
)
