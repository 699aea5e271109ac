package cli

import (
	"strings"
	"testing"
)

// completion names what bash needs, and PowerShell has a script too.
func TestCompletionShells(t *testing.T) {
	e := newEnv(t)
	r := e.run(t, "completion", "--help")
	r.expect(t, ExitOK)
	for _, want := range []string{"bash-completion", "powershell", "Invoke-Expression"} {
		if !strings.Contains(r.out, want) {
			t.Errorf("completion --help lacks %q:\n%s", want, r.out)
		}
	}
	r = e.run(t, "completion", "powershell")
	r.expect(t, ExitOK)
	if !strings.Contains(r.out, "Register-ArgumentCompleter") || !strings.Contains(r.out, "driftboard") {
		t.Errorf("completion powershell:\n%.400s", r.out)
	}
	e.run(t, "completion", "tcsh").expect(t, ExitError, `invalid argument "tcsh"`)
}
