package wire

import (
	"google.golang.org/protobuf/encoding/protowire"
	corev1 "k8s.io/api/core/v1"
)

// Workloads are decoded without their pod template's containers'
// resources too, which no transform reads: a Deployment's limits and
// requests are two maps of quantities (~2.2 KB an object, ~22 MB of a
// 10,000-App start's allocations). Each resources field left out is first
// decoded by its generated Unmarshal on the same bytes into the request's
// scratch, whose maps are reused, so what the machinery refuses is refused
// as before (the object goes the machinery's way).

const (
	workloadSpecField   = 2 // spec in Deployment, ReplicaSet, StatefulSet
	templateField       = 3 // template in their specs
	podSpecField        = 2 // spec in PodTemplateSpec
	containersField     = 2 // in PodSpec
	initContainersField = 20
	nodeSelectorField   = 7 // PodSpec's map fields
	overheadField       = 32
	resourcesField      = 8 // in Container
)

// Depths of withoutResources' path, from the workload's spec down.
const (
	inWorkloadSpec = iota
	inTemplate
	inPodSpec
	inContainer
	pathDepth
)

// resourcesScratch is what withoutResources rewrites into and checks with.
type resourcesScratch struct {
	levels    [pathDepth][]byte
	resources corev1.ResourceRequirements
}

// withoutResources is a workload's spec (msg) with its pod template's
// containers' and init containers' resources left out (in the scratch's
// buffers); ok false when a field on the way cannot be split, a PodSpec map
// entry could read past its end into what changes (see wellBounded), or a
// resources field would not decode.
func (s *resourcesScratch) withoutResources(msg []byte, depth int) ([]byte, bool) {
	out := s.levels[depth][:0]
	for b := msg; len(b) > 0; {
		num, typ, field, rest, ok := nextField(b)
		if !ok {
			return nil, false
		}
		b = rest
		if typ != protowire.BytesType {
			out = append(out, field...)
			continue
		}
		switch {
		case depth == inContainer && num == resourcesField:
			if !s.resourcesDecode(value(field)) {
				return nil, false
			}
			continue // left out
		case depth == inPodSpec && (num == nodeSelectorField || num == overheadField):
			if !wellBounded(value(field)) {
				return nil, false
			}
		case depth == inWorkloadSpec && num == templateField, depth == inTemplate && num == podSpecField,
			depth == inPodSpec && (num == containersField || num == initContainersField):
			inner, _ := protowire.ConsumeBytes(value(field))
			kept, ok := s.withoutResources(inner, depth+1)
			if !ok {
				return nil, false
			}
			out = protowire.AppendTag(out, num, protowire.BytesType)
			out = protowire.AppendBytes(out, kept)
			continue
		}
		out = append(out, field...)
	}
	s.levels[depth] = out
	return out, true
}

// resourcesDecode reports whether the generated Unmarshal takes a
// length-prefixed ResourceRequirements (the Container's own reads it so).
func (s *resourcesScratch) resourcesDecode(lengthPrefixed []byte) bool {
	msg, n := protowire.ConsumeBytes(lengthPrefixed)
	if n < 0 {
		return false
	}
	r := &s.resources
	if len(r.Limits) > maxReused || len(r.Requests) > maxReused || len(r.Claims) > maxReused {
		*r = corev1.ResourceRequirements{}
	}
	clear(r.Limits)
	clear(r.Requests)
	r.Claims = r.Claims[:0]
	return r.Unmarshal(msg) == nil
}
