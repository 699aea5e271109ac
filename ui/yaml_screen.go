package ui

import (
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/hanzoai/driftboard/model"
	"github.com/hanzoai/driftboard/ui/yaml"
)

// YAMLReader reads one App's custom resource as YAML on demand (kube.Fleet
// GETs it); the yaml component draws it.
type YAMLReader = yaml.Reader

// openYAML shows row r's App as YAML, read now (nil row: nothing to show).
func (m *Model) openYAML(r *model.AppView) tea.Cmd {
	if r == nil {
		return nil
	}
	var cmd tea.Cmd
	m.yaml, cmd = yaml.Open(m.ctx, m.fleet, r.Key(), m.keys, m.yaml)
	m.yamlFrom, m.screen = m.screen, screenYAML
	return cmd
}

func (m *Model) yamlKey(msg tea.KeyPressMsg) tea.Cmd {
	var act yaml.Action
	m.yaml, act = m.yaml.Update(msg)
	switch act {
	case yaml.Back:
		m.screen = m.yamlFrom
	case yaml.Help:
		m.openHelp()
	}
	return nil
}

func (m *Model) renderYAML(sb *strings.Builder, w, h int) {
	body := h - 3
	sb.WriteString(m.titleLine(w))
	sb.WriteByte('\n')
	m.yaml.RenderBody(sb, w, body)
	sb.WriteString(m.statusBar(w))
	sb.WriteByte('\n')
	sb.WriteString(m.yaml.Hint(&m.st, w, body))
}
