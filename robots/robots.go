// Package robots parses robots.txt files (RFC 9309 and the 1994 Standard for
// Robot Exclusion) and answers whether a robot may fetch a path.
package robots
