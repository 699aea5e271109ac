package wire

import (
	"math/rand/v2"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// slowSelectorString is selectorString's definition: the API machinery's
// rendering.
func slowSelectorString(sel *metav1.LabelSelector) string {
	s, err := metav1.LabelSelectorAsSelector(sel)
	if err != nil || s.Empty() {
		return ""
	}
	return s.String()
}

// The quick rendering of a plain selector is the API machinery's, for the
// usual selectors, edge cases of the key and value syntax, and random ones.
func TestSelectorStringIsTheAPIMachinerys(t *testing.T) {
	sels := []map[string]string{
		{"app": "svc-00001"},
		{"app.kubernetes.io/name": "iam", "app.kubernetes.io/instance": "iam-main", "tier": ""},
		{"b": "2", "a": "1", "c": "3"},
		{"hanzo.ai/app": "A.b_c-D"},
		{"-bad": "x"}, {"bad-": "x"}, {"a": "-x"}, {"a": "x_"}, {"a/b/c": "x"}, {"/a": "x"}, {"a/": "x"},
		{"Upper.Case/name": "x"}, {"a..b/n": "x"}, {"a.-b/n": "x"}, {"a b": "x"}, {"a": "x,y"}, {"a": "x=y"},
		{"k": string(make([]byte, 64))}, {"": "x"},
	}
	long := "a"
	for range 62 {
		long += "b"
	}
	sels = append(sels, map[string]string{long: long}, map[string]string{long + "c": "x"}, map[string]string{"a": long + "c"})
	// Hostile: control characters, unicode (letters and digits outside
	// ASCII), DNS prefixes at and past their 253 bytes.
	sels = append(sels, map[string]string{"a": "x\x00"}, map[string]string{"a\n": "x"}, map[string]string{"a": "x\x7fy"},
		map[string]string{"a": "\x1b[31mred"}, map[string]string{"é": "x"}, map[string]string{"a": "ünï"},
		map[string]string{"a": "x\u00a0y"}, map[string]string{"a": "٣"}, map[string]string{"a": "x\xffy"},
		map[string]string{"bücher.example/n": "x"}, map[string]string{"a": "x" + string(rune(0x0130))})
	for _, n := range []int{253, 254} {
		prefix := strings.Repeat("a.", n/2)[:n-1] + "b"
		sels = append(sels, map[string]string{prefix + "/name": "x"})
	}
	r := rand.New(rand.NewPCG(15, 50))
	const alphabet = "aZ09-_./ ,=!"
	word := func() string {
		b := make([]byte, r.IntN(5))
		for i := range b {
			b[i] = alphabet[r.IntN(len(alphabet))]
		}
		return string(b)
	}
	for range 10_000 {
		m := map[string]string{}
		for range 1 + r.IntN(3) {
			m[word()] = word()
		}
		sels = append(sels, m)
	}
	quick := 0
	for _, m := range sels {
		sel := &metav1.LabelSelector{MatchLabels: m}
		if got, want := SelectorString(sel), slowSelectorString(sel); got != want {
			t.Fatalf("%q: %q; the API machinery gives %q", m, got, want)
		}
		if _, ok := plainSelectorString(sel); ok {
			quick++
		}
	}
	if _, ok := plainSelectorString(&metav1.LabelSelector{MatchLabels: sels[1]}); !ok || quick < 50 {
		t.Fatalf("the quick rendering took %d of %d selectors (and not a usual one: %v)", quick, len(sels), ok)
	}
	withExpr := &metav1.LabelSelector{MatchLabels: map[string]string{"a": "b"},
		MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "c", Operator: metav1.LabelSelectorOpExists}}}
	if got, want := SelectorString(withExpr), slowSelectorString(withExpr); got != want || got == "" {
		t.Fatalf("with an expression: %q, want %q", got, want)
	}
}

// BenchmarkSelectorString: a Deployment's usual selector (the operator's
// two labels, as the fleet's Deployments have), quick and slow.
func BenchmarkSelectorString(b *testing.B) {
	sel := &metav1.LabelSelector{MatchLabels: map[string]string{
		"app.kubernetes.io/name": "svc-00001", "app.kubernetes.io/instance": "svc-00001"}}
	b.Run("quick", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			SelectorString(sel)
		}
	})
	b.Run("api-machinery", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			slowSelectorString(sel)
		}
	})
}
