package wire

import (
	"fmt"
	"time"

	"sigs.k8s.io/yaml"

	"github.com/hanzoai/driftboard/model"
)

// A CD Application is as hostile as an App: whoever can write to its
// namespace (or its git repo) shapes it. Every field is type-checked and
// sized, and kept exactly (escaping is the printers' rule, so -o json
// carries the values); a wrong field is a DecodeError, never a panic.

const (
	maxCDResources  = 20000    // status.resources entries kept per Application
	maxHelmValues   = 64 << 10 // bytes of spec.source.helm.values parsed
	maxHelmParams   = 256
	maxCDMessageLen = 300
)

// DecodeCDApplication reads an Argo-CD-shaped Application of group.
func DecodeCDApplication(cluster, group string, obj map[string]any) model.CDApplication {
	var d decoder
	a := model.CDApplication{Cluster: cluster, Group: group}
	if meta := d.object(obj, "metadata", "metadata"); meta != nil {
		a.Name = d.str(meta, "name", "metadata.name")
		a.Namespace = d.str(meta, "namespace", "metadata.namespace")
	}
	if spec := d.object(obj, "spec", "spec"); spec != nil {
		src := d.object(spec, "source", "spec.source")
		if src == nil { // multi-source Applications: the first source names the path
			if l := d.list(spec, "sources", "spec.sources", 16); len(l) > 0 {
				src, _ = l[0].(map[string]any)
			}
		}
		if src != nil {
			a.RepoURL = d.str(src, "repoURL", "spec.source.repoURL")
			a.Path = d.str(src, "path", "spec.source.path")
			a.TargetRevision = d.str(src, "targetRevision", "spec.source.targetRevision")
			a.Chart = d.str(src, "chart", "spec.source.chart")
			if helm := d.object(src, "helm", "spec.source.helm"); helm != nil {
				a.Image = helmImage(&d, helm)
			}
		}
		if policy := d.object(spec, "syncPolicy", "spec.syncPolicy"); policy != nil {
			a.Automated = d.object(policy, "automated", "spec.syncPolicy.automated") != nil
		}
		if dest := d.object(spec, "destination", "spec.destination"); dest != nil {
			a.DestNS = d.str(dest, "namespace", "spec.destination.namespace")
		}
	}
	if st := d.object(obj, "status", "status"); st != nil {
		decodeCDStatus(&d, st, &a)
	}
	a.DecodeErrors = d.errs
	return a
}

func decodeCDStatus(d *decoder, st map[string]any, a *model.CDApplication) {
	if sync := d.object(st, "sync", "status.sync"); sync != nil {
		a.SyncStatus = d.str(sync, "status", "status.sync.status")
		a.Revision = d.str(sync, "revision", "status.sync.revision")
	}
	if h := d.object(st, "health", "status.health"); h != nil {
		a.Health = d.str(h, "status", "status.health.status")
	}
	if op := d.object(st, "operationState", "status.operationState"); op != nil {
		a.Operation.Phase = d.str(op, "phase", "status.operationState.phase")
		a.Operation.Message = Truncate(d.str(op, "message", "status.operationState.message"), maxCDMessageLen)
		if ts := d.str(op, "finishedAt", "status.operationState.finishedAt"); ts != "" {
			if t, err := time.Parse(time.RFC3339, ts); err == nil {
				a.Operation.FinishedAt = t
			} else {
				d.fail("status.operationState.finishedAt", "not RFC 3339: %s", short(ts))
			}
		}
	}
	raw, _ := st["resources"].([]any)
	a.ResourcesCapped = len(raw) > maxCDResources
	for i, r := range d.list(st, "resources", "status.resources", maxCDResources) {
		path := fmt.Sprintf("status.resources[%d]", i)
		m, ok := r.(map[string]any)
		if !ok {
			d.fail(path, "want an object, got %s", typeName(r))
			continue
		}
		res := model.CDResource{
			Group: d.str(m, "group", path+".group"), Kind: d.str(m, "kind", path+".kind"),
			Namespace: d.str(m, "namespace", path+".namespace"), Name: d.str(m, "name", path+".name"),
			Status: d.str(m, "status", path+".status"),
		}
		if h := d.object(m, "health", path+".health"); h != nil {
			res.Health = d.str(h, "status", path+".health.status")
		}
		a.Resources = append(a.Resources, res)
	}
}

// helmImage reads the image a chart declares: parameters (they override
// values, as Helm applies them) first, then valuesObject, then the values
// string. Keys: image.repository, image.tag, image.digest.
func helmImage(d *decoder, helm map[string]any) model.CDImage {
	var im model.CDImage
	set := func(key, v, from string) {
		switch key {
		case "image.repository":
			if im.Repository == "" {
				im.Repository = v
			}
		case "image.tag":
			if im.Tag == "" {
				im.Tag, im.From = v, from
			}
		case "image.digest":
			if im.Digest == "" {
				im.Digest = v
			}
		}
	}
	for i, p := range d.list(helm, "parameters", "spec.source.helm.parameters", maxHelmParams) {
		if m, ok := p.(map[string]any); ok {
			path := fmt.Sprintf("spec.source.helm.parameters[%d]", i)
			name := d.str(m, "name", path+".name")
			set(name, d.str(m, "value", path+".value"), "helm parameter "+name)
		}
	}
	values := d.object(helm, "valuesObject", "spec.source.helm.valuesObject")
	from := "helm valuesObject"
	if values == nil {
		switch raw, ok := helm["values"].(string); {
		case helm["values"] != nil && !ok:
			d.fail("spec.source.helm.values", "want a string, got %s", typeName(helm["values"]))
		case raw != "":
			from = "helm values"
			if len(raw) > maxHelmValues {
				d.fail("spec.source.helm.values", "too long (%d bytes); not read", len(raw))
			} else if err := yaml.Unmarshal([]byte(raw), &values); err != nil {
				d.fail("spec.source.helm.values", "not YAML: %s", short(err.Error()))
			}
		}
	}
	if img, ok := values["image"].(map[string]any); ok {
		for _, k := range []string{"repository", "tag", "digest"} {
			if s, ok := img[k].(string); ok {
				set("image."+k, Truncate(s, maxField), from)
			}
		}
	}
	return im
}
