package wire

import (
	"encoding/json"
	"fmt"
	"math"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/hanzoai/driftboard/model"
)

// Decoding an App by hand: the CR is whatever someone committed to git, so
// every field is checked for its type and size. A wrong field becomes a
// DecodeError on the row, never a panic and never a dropped row.

const (
	maxField      = 512 // bytes kept of a string field (names, tags, repositories)
	maxConditions = 16
	maxEndpoints  = 32
	maxLabels     = 64
)

// decoder collects problems while reading one object.
type decoder struct{ errs []string }

func (d *decoder) fail(path, format string, args ...any) {
	if len(d.errs) < 20 {
		d.errs = append(d.errs, path+": "+fmt.Sprintf(format, args...))
	}
}

func typeName(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case string:
		return "string"
	case bool:
		return "boolean"
	case int, int32, int64, float64, json.Number:
		return "number"
	case map[string]any:
		return "object"
	case []any:
		return "array"
	}
	return fmt.Sprintf("%T", v)
}

// object returns m[key] as an object; absent → nil without a problem.
func (d *decoder) object(m map[string]any, key, path string) map[string]any {
	v, ok := m[key]
	if !ok || v == nil {
		return nil
	}
	o, ok := v.(map[string]any)
	if !ok {
		d.fail(path, "want an object, got %s", typeName(v))
	}
	return o
}

func (d *decoder) str(m map[string]any, key, path string) string {
	v, ok := m[key]
	if !ok || v == nil {
		return ""
	}
	s, ok := v.(string)
	if !ok {
		d.fail(path, "want a string, got %s %s", typeName(v), short(v))
		return ""
	}
	if len(s) > maxField {
		d.fail(path, "too long (%d bytes)", len(s))
		return s[:maxField]
	}
	return s
}

// plainCondition is a condition whose fields str would take without a
// problem (each absent, null, or a string of at most maxField bytes); ok
// false otherwise, for str to say what is wrong where.
func plainCondition(cm map[string]any) (model.Condition, bool) {
	var f [4]string
	for i, key := range [4]string{"type", "status", "reason", "message"} {
		switch v := cm[key].(type) {
		case nil:
		case string:
			if len(v) > maxField {
				return model.Condition{}, false
			}
			f[i] = v
		default:
			return model.Condition{}, false
		}
	}
	return model.Condition{Type: f[0], Status: f[1], Reason: f[2], Message: f[3]}, true
}

func short(v any) string {
	s := fmt.Sprint(v)
	if len(s) > 40 {
		s = s[:40] + "…"
	}
	return fmt.Sprintf("(%s)", s)
}

// integer reads a whole number in [lo, hi]; JSON numbers arrive as int64 or
// float64 from the API machinery, and as int from hand-built objects.
func (d *decoder) integer(m map[string]any, key, path string, lo, hi int64) (int64, bool) {
	v, ok := m[key]
	if !ok || v == nil {
		return 0, false
	}
	var n int64
	switch x := v.(type) {
	case int64:
		n = x
	case int:
		n = int64(x)
	case int32:
		n = int64(x)
	case float64:
		if x != math.Trunc(x) || math.IsInf(x, 0) || math.IsNaN(x) || x < float64(lo) || x > float64(hi) {
			d.fail(path, "want a whole number in [%d, %d], got %v", lo, hi, x)
			return 0, false
		}
		n = int64(x)
	case json.Number:
		i, err := x.Int64()
		if err != nil {
			d.fail(path, "want a whole number, got %s", short(x))
			return 0, false
		}
		n = i
	default:
		d.fail(path, "want a number, got %s %s", typeName(v), short(v))
		return 0, false
	}
	if n < lo || n > hi {
		d.fail(path, "want a whole number in [%d, %d], got %d", lo, hi, n)
		return 0, false
	}
	return n, true
}

func (d *decoder) int32(m map[string]any, key, path string) int32 {
	n, _ := d.integer(m, key, path, 0, math.MaxInt32)
	return int32(n)
}

// DecodeApp reads an App or Service custom resource (its unstructured
// content) into the model's input. cluster names the cluster it came from.
func DecodeApp(cluster string, obj map[string]any) model.AppObject {
	var d decoder
	app := model.AppObject{Kind: "App"}
	app.Cluster = cluster
	if k, ok := obj["kind"].(string); ok && k == "Service" {
		app.Kind = k
	}
	if meta := d.object(obj, "metadata", "metadata"); meta != nil {
		app.Name = d.str(meta, "name", "metadata.name")
		app.Namespace = intern(d.str(meta, "namespace", "metadata.namespace"))
		app.UID = d.str(meta, "uid", "metadata.uid")
		app.ResourceVersion = d.str(meta, "resourceVersion", "metadata.resourceVersion")
		app.Generation, _ = d.integer(meta, "generation", "metadata.generation", 0, math.MaxInt64)
		if ts := d.str(meta, "creationTimestamp", "metadata.creationTimestamp"); ts != "" {
			if t, err := time.Parse(time.RFC3339, ts); err == nil {
				app.CreatedAt = t
			} else {
				d.fail("metadata.creationTimestamp", "not RFC 3339: %s", short(ts))
			}
		}
		app.Labels = sharedLabels(d.stringMap(meta, "labels", "metadata.labels"))
		app.Annotations = d.stringMap(meta, "annotations", "metadata.annotations")
	} else {
		d.fail("metadata", "missing")
	}

	spec := d.object(obj, "spec", "spec")
	if _, present := obj["spec"]; !present {
		d.fail("spec", "missing")
	}
	if spec != nil {
		decodeSpec(&d, spec, &app)
	}
	if status := d.object(obj, "status", "status"); status != nil {
		decodeStatus(&d, status, &app)
	}
	app.DecodeErrors = d.errs
	return app
}

func decodeSpec(d *decoder, spec map[string]any, app *model.AppObject) {
	app.Role = d.str(spec, "role", "spec.role")
	if img := d.object(spec, "image", "spec.image"); img != nil {
		app.ImageRepository = d.str(img, "repository", "spec.image.repository")
		app.ImageTag = d.str(img, "tag", "spec.image.tag")
	}
	if n, ok := d.integer(spec, "replicas", "spec.replicas", 0, math.MaxInt32); ok {
		r := int32(n)
		app.Replicas = &r
	}
}

func decodeStatus(d *decoder, st map[string]any, app *model.AppObject) {
	app.Phase = d.str(st, "phase", "status.phase")
	app.ReadyReplicas = d.int32(st, "readyReplicas", "status.readyReplicas")
	app.AvailableReplicas = d.int32(st, "availableReplicas", "status.availableReplicas")
	app.ObservedGen, _ = d.integer(st, "observedGeneration", "status.observedGeneration", 0, math.MaxInt64)
	app.LastGoodImage = d.str(st, "lastGoodImage", "status.lastGoodImage")
	decodeUpgrade(d, st, app)
	for i, c := range d.list(st, "conditions", "status.conditions", maxConditions) {
		cm, ok := c.(map[string]any)
		if !ok {
			d.fail(fmt.Sprintf("status.conditions[%d]", i), "want an object, got %s", typeName(c))
			continue
		}
		if cond, ok := plainCondition(cm); ok { // nothing to say: no paths to make (five strings an App)
			app.Conditions = append(app.Conditions, cond)
			continue
		}
		path := fmt.Sprintf("status.conditions[%d]", i)
		app.Conditions = append(app.Conditions, model.Condition{
			Type: d.str(cm, "type", path+".type"), Status: d.str(cm, "status", path+".status"),
			Reason: d.str(cm, "reason", path+".reason"), Message: d.str(cm, "message", path+".message"),
		})
	}
	for i, e := range d.list(st, "endpoints", "status.endpoints", maxEndpoints) {
		s, ok := e.(string)
		if !ok {
			d.fail(fmt.Sprintf("status.endpoints[%d]", i), "want a string, got %s", typeName(e))
			continue
		}
		app.Endpoints = append(app.Endpoints, Truncate(s, maxField))
	}
}

func (d *decoder) list(m map[string]any, key, path string, limit int) []any {
	v, ok := m[key]
	if !ok || v == nil {
		return nil
	}
	l, ok := v.([]any)
	if !ok {
		d.fail(path, "want an array, got %s", typeName(v))
		return nil
	}
	if len(l) > limit {
		d.fail(path, "%d entries; only the first %d kept", len(l), limit)
		l = l[:limit]
	}
	return l
}

// transformApp is the App/Service informers' transform: entries come
// decoded from their source; an unstructured object (a hand-fed store)
// is decoded here.
func TransformApp(cluster string) func(any) (any, error) {
	return func(obj any) (any, error) {
		u, ok := obj.(*unstructured.Unstructured)
		if !ok {
			return obj, nil // already decoded, or a tombstone
		}
		return AppEntryOf(cluster, u), nil
	}
}
