// Package bench holds driftboard's fleet-scale benchmarks (make bench): a
// real kube-apiserver seeded with N Apps and their Deployments, the board's
// kube.Fleet run in a child process so its RSS and CPU are its own, and the
// same run's kubectl lists as the floor. Everything is in the _test files.
package bench
