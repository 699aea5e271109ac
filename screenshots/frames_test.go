package screenshots

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
)

// TestMain pins the zone, as `make screenshots` does: frames show clock times.
func TestMain(m *testing.M) {
	time.Local = time.UTC
	os.Exit(m.Run())
}

// The committed frames must be what `make screenshots` renders from the
// current UI; compared as text (ANSI stripped), not as PNG bytes.
func TestCommittedFramesAreCurrent(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	frames, err := Render(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(frames) != len(scenes) {
		t.Fatalf("rendered %d frames for %d scenes", len(frames), len(scenes))
	}
	for _, f := range frames {
		committed, err := os.ReadFile(filepath.Join(".", f.Name+".ans"))
		if err != nil {
			t.Errorf("%s.ans: %v — run make screenshots", f.Name, err)
			continue
		}
		got, want := lines(f.ANSI), lines(string(committed))
		if len(got) != len(want) {
			t.Errorf("%s: %d lines now, %d committed — run make screenshots", f.Name, len(got), len(want))
			continue
		}
		for i := range got {
			if got[i] != want[i] {
				t.Errorf("%s differs at line %d — run make screenshots\nnow:       %q\ncommitted: %q", f.Name, i+1, got[i], want[i])
				break
			}
		}
	}
}

// Rendering twice gives the same frames: the screenshots are reproducible.
func TestFramesAreDeterministic(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	a, err := Render(ctx)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Render(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for i := range a {
		if ansi.Strip(a[i].ANSI) != ansi.Strip(b[i].ANSI) {
			t.Errorf("%s renders differently on a second run:\n%s\n----\n%s", a[i].Name, ansi.Strip(a[i].ANSI), ansi.Strip(b[i].ANSI))
		}
	}
}

func lines(frame string) []string {
	out := strings.Split(ansi.Strip(frame), "\n")
	for i := range out {
		out[i] = strings.TrimRight(out[i], " ")
	}
	return out
}
