// Package wire decodes what the Kubernetes API sends into the board's plain
// entries: App and Service CRs (a fast single-pass JSON decoder with the
// strict, path-naming slow decoder behind it), workloads, ReplicaSets and pods
// (protobuf, with the fields the board never reads skipped), Hanzo CD's
// Applications, and the informers' transforms that trim cached objects. It
// never talks to a cluster, so every byte it reads can be tested and fuzzed
// without one.
package wire
