// Package findings is what a pass over a log found: the verdict on each
// client, the robots by name, their violations and incidents, the
// timeline, networks and operators (Result, the JSON report's model), and
// the merge of the results of parts (--workers, --shard, days, ledgers).
// detect makes a Result; report renders one and never imports detect.
package findings
