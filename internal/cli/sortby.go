package cli

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"k8s.io/client-go/util/jsonpath"

	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/model/query"
)

// sortSpec is a parsed --sort-by: one of the board's orders by name, or, as
// kubectl's, a JSONPath over each row's JSON (.namespace, {.drift.severity}).
type sortSpec struct {
	key  query.SortKey
	path *jsonpath.JSONPath
}

func parseSortBy(s string) (sortSpec, error) {
	if strings.HasPrefix(s, ".") || strings.HasPrefix(s, "{") {
		p, err := relaxedPath("sort-by", s)
		if err != nil {
			return sortSpec{}, usageErr("--sort-by: %v", err)
		}
		return sortSpec{key: query.SortSeverity, path: p}, nil
	}
	key, err := query.ParseSortKey(s)
	if err != nil {
		return sortSpec{}, usageErr("--sort-by: %v, or a JSONPath such as .namespace", err)
	}
	return sortSpec{key: key}, nil
}

// selectRows is query.Select, then, for a JSONPath, a stable sort on the
// value it finds in each row (numbers by value, rows without one first).
func (s sortSpec) selectRows(rows []*model.AppView, q query.Query) ([]*model.AppView, error) {
	out := query.Select(rows, q, s.key)
	if s.path == nil {
		return out, nil
	}
	type keyed struct {
		row *model.AppView
		num float64
		str string
		has bool
		isN bool
	}
	items := make([]keyed, len(out))
	for i, r := range out {
		items[i].row = r
		data, err := generic(r)
		if err != nil {
			return nil, err
		}
		found, err := s.path.FindResults(data)
		if err != nil {
			return nil, fmt.Errorf("--sort-by: %w", err)
		}
		if len(found) > 0 && len(found[0]) > 0 {
			v := found[0][0].Interface()
			items[i].has = true
			items[i].num, items[i].isN = v.(float64)
			items[i].str = fmt.Sprint(v)
		}
	}
	slices.SortStableFunc(items, func(a, b keyed) int {
		switch {
		case a.has != b.has:
			if a.has {
				return 1
			}
			return -1
		case a.isN && b.isN:
			return cmp.Compare(a.num, b.num)
		}
		return strings.Compare(a.str, b.str)
	})
	for i := range items {
		out[i] = items[i].row
	}
	return out, nil
}
