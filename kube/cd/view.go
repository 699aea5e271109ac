package cd

import "github.com/hanzoai/driftboard/model"

// Refresh rebuilds the CD view after an Application changed and returns
// the rows to re-evaluate: the App rows whose git state moved (one
// Application may list them all) and the chart rows before and after.
func (cw *Watcher) Refresh() []model.Key {
	w := cw.current()
	if w == nil || w.why != "" {
		return nil
	}
	w.mu.Lock()
	if !w.dirty {
		w.mu.Unlock()
		return nil
	}
	var apps []*model.CDApplication
	for _, inf := range w.infs {
		for _, obj := range inf.GetStore().List() {
			if e, ok := obj.(*entry); ok {
				a := e.App // entries are never mutated; the copy keeps the view independent of the cache
				apps = append(apps, &a)
			}
		}
	}
	old, oldView, wasReady := w.charts, w.view, w.ready
	w.view, w.dirty, w.ready = model.NewCDView("", apps), false, true
	w.view.Unfollowed = w.unfollowed
	w.charts = map[model.Key]*model.CDApplication{}
	for _, a := range w.view.Apps {
		if !model.IsChartApplication(a) {
			continue
		}
		for _, k := range model.ChartRowKeys(a) {
			if _, dup := w.charts[k]; !dup {
				w.charts[k] = a
			}
		}
	}
	view := w.view
	w.mu.Unlock()
	var keys []model.Key
	for _, k := range append(w.chartKeys(), cw.cfg.Host.AppKeys()...) { // the new chart rows included
		if !wasReady || cw.IsChart(k) || old[k] != nil ||
			view.GitChanged(oldView, cw.cfg.AppGroup, "App", k.Namespace, k.Name) ||
			view.GitChanged(oldView, cw.cfg.AppGroup, "Service", k.Namespace, k.Name) {
			keys = append(keys, k)
		}
	}
	for k := range old {
		keys = append(keys, k)
	}
	return keys
}

// View is the CD view as of the last Refresh.
func (cw *Watcher) View() model.CDView {
	w := cw.current()
	if w == nil {
		return model.NewCDView(model.GitWhyNotSynced, nil)
	}
	if w.why != "" {
		return model.NewCDView(w.why, nil)
	}
	if w.run.gone.Load() { // its Applications are no fact about git any more
		return model.NewCDView(model.GitWhyNotSynced, nil)
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.ready {
		return model.NewCDView(model.GitWhyNotSynced, nil)
	}
	return w.view
}

// Settled reports whether the rows' git state is what it will be once the
// cluster has synced: no Application kind is watched here.
func (cw *Watcher) Settled() bool {
	w := cw.current()
	return w != nil && w.why != ""
}

// ChartKeys are the rows of chart-plane Applications (services on the Helm
// chart plane, with no App CR).
func (cw *Watcher) ChartKeys() []model.Key {
	w := cw.current()
	if w == nil {
		return nil
	}
	return w.chartKeys()
}

// Chart is the Application of chart-plane row k (nil: not one), and the
// view it was read in.
func (cw *Watcher) Chart(k model.Key) (*model.CDApplication, model.CDView) {
	w := cw.current()
	if w == nil {
		return nil, model.CDView{}
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.charts[k], w.view
}

// IsChart reports whether k is a chart-plane row.
func (cw *Watcher) IsChart(k model.Key) bool {
	a, _ := cw.Chart(k)
	return a != nil
}
