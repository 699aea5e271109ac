package wire

import (
	"google.golang.org/protobuf/encoding/protowire"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// Workloads are decoded without their metadata.managedFields, which no
// transform reads (each entry's fieldsV1 was copied: ~26 MB at 10,000
// Deployments and ReplicaSets). The object's bytes are copied once into a
// buffer the request reuses, leaving the managedFields entries out, each
// checked first by its own generated Unmarshal: an entry the machinery would
// refuse, or anything else that keeps the shorter bytes from decoding, sends
// the object down the machinery's way, so what fails fails as it did.

var withoutManagedFieldsKinds = map[schema.GroupVersionKind]bool{
	{Group: "apps", Version: "v1", Kind: "Deployment"}:  true,
	{Group: "apps", Version: "v1", Kind: "ReplicaSet"}:  true,
	{Group: "apps", Version: "v1", Kind: "StatefulSet"}: true,
}

const (
	objectMetaField    = 1  // metadata in Deployment, ReplicaSet, StatefulSet
	labelsField        = 11 // in ObjectMeta: map entries
	annotationsField   = 12
	managedFieldsField = 17
)

// wellBounded reports whether a map entry's fields all end within it. The
// generated code reads a map entry's key and value bounded by the whole
// ObjectMeta, not by the entry, so one that overran would read what follows
// it, which leaving managedFields out would change.
func wellBounded(lengthPrefixed []byte) bool {
	entry, n := protowire.ConsumeBytes(lengthPrefixed)
	if n < 0 {
		return false
	}
	for len(entry) > 0 {
		_, _, _, rest, ok := nextField(entry)
		if !ok {
			return false
		}
		entry = rest
	}
	return true
}

// managedFieldsScratch is one request's buffers and the entry each
// managedFields record is checked with.
type managedFieldsScratch struct {
	buf, entryBuf []byte
	entry         metav1.ManagedFieldsEntry
	res           resourcesScratch // podresources.go
}

const (
	fieldsV1Field = 7 // in ManagedFieldsEntry
	fieldsV1Raw   = 1 // in FieldsV1
)

// entryDecodes reports whether the generated Unmarshal would take entry.
// Its fieldsV1 (which that Unmarshal would copy) is checked on its own: a
// message of well-formed fields whose raw is length-delimited, which is
// what FieldsV1's Unmarshal takes (protowire is the stricter: a group
// whose end does not match, a varint past 64 bits); the rest goes through
// the entry's Unmarshal.
func (s *managedFieldsScratch) entryDecodes(entry []byte) bool {
	rest := s.entryBuf[:0]
	for e := entry; len(e) > 0; {
		num, typ, field, r, ok := nextField(e)
		if !ok {
			return false
		}
		e = r
		if num != fieldsV1Field {
			rest = append(rest, field...)
			continue
		}
		if typ != protowire.BytesType {
			return false
		}
		fields, _ := protowire.ConsumeBytes(value(field))
		for len(fields) > 0 {
			n, t, _, r, ok := nextField(fields)
			if !ok || n == fieldsV1Raw && t != protowire.BytesType {
				return false
			}
			fields = r
		}
	}
	s.entryBuf = rest
	return s.entry.Unmarshal(rest) == nil
}

// decodeWorkload decodes raw (an object of kind actual) into obj, without
// its managedFields where that is safe.
func (o inPlaceObjects) decodeWorkload(raw []byte, actual schema.GroupVersionKind, obj runtime.Object) (runtime.Object, *schema.GroupVersionKind, error) {
	if o.scratch != nil && withoutManagedFieldsKinds[actual] {
		if short, ok := o.scratch.withoutManagedFields(raw); ok {
			kind := actual
			if out, gvk, err := rawProtobuf.Decode(short, &kind, obj); err == nil {
				return out, gvk, nil
			}
		}
	}
	return rawProtobuf.Decode(raw, &actual, obj) // resets obj first
}

// withoutManagedFields is raw with the managedFields records of its
// metadata and its containers' resources left out (in the scratch buffer);
// ok false when raw cannot be split into fields or a left-out record would
// not decode.
func (s *managedFieldsScratch) withoutManagedFields(raw []byte) ([]byte, bool) {
	out := s.buf[:0]
	for b := raw; len(b) > 0; {
		num, typ, field, rest, ok := nextField(b)
		if !ok {
			return nil, false
		}
		b = rest
		if num == workloadSpecField && typ == protowire.BytesType {
			spec, _ := protowire.ConsumeBytes(value(field))
			kept, ok := s.res.withoutResources(spec, inWorkloadSpec)
			if !ok {
				return nil, false
			}
			out = protowire.AppendTag(out, workloadSpecField, protowire.BytesType)
			out = protowire.AppendBytes(out, kept)
			continue
		}
		if num != objectMetaField || typ != protowire.BytesType {
			out = append(out, field...)
			continue
		}
		meta, _ := protowire.ConsumeBytes(value(field))
		kept, ok := s.keptSize(meta)
		if !ok {
			return nil, false
		}
		out = protowire.AppendTag(out, objectMetaField, protowire.BytesType)
		out = protowire.AppendVarint(out, uint64(kept))
		for m := meta; len(m) > 0; {
			n, t, f, r, _ := nextField(m)
			if n != managedFieldsField || t != protowire.BytesType {
				out = append(out, f...)
			}
			m = r
		}
	}
	s.buf = out
	return out, true
}

// keptSize is the size of meta without its managedFields records, each of
// which must decode as the machinery would decode it.
func (s *managedFieldsScratch) keptSize(meta []byte) (int, bool) {
	kept := 0
	for m := meta; len(m) > 0; {
		num, typ, field, rest, ok := nextField(m)
		if !ok {
			return 0, false
		}
		m = rest
		if (num == labelsField || num == annotationsField) && typ == protowire.BytesType && !wellBounded(value(field)) {
			return 0, false
		}
		if num != managedFieldsField || typ != protowire.BytesType {
			kept += len(field)
			continue
		}
		entry, _ := protowire.ConsumeBytes(value(field))
		if !s.entryDecodes(entry) {
			return 0, false
		}
	}
	return kept, true
}

// value is a field without its tag.
func value(field []byte) []byte {
	_, _, n := protowire.ConsumeTag(field)
	return field[n:]
}

// nextField splits off b's first field, tag included.
func nextField(b []byte) (num protowire.Number, typ protowire.Type, field, rest []byte, ok bool) {
	num, typ, n := protowire.ConsumeTag(b)
	if n < 0 {
		return 0, 0, nil, nil, false
	}
	m := protowire.ConsumeFieldValue(num, typ, b[n:])
	if m < 0 {
		return 0, 0, nil, nil, false
	}
	return num, typ, b[:n+m], b[n+m:], true
}
