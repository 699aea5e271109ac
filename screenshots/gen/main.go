// Command gen renders the board's screenshots (make screenshots): the text
// frames (ANSI, *.ans) that a test keeps up to date, and PNG images made from
// them with charmbracelet/freeze.
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/hanzoai/driftboard/screenshots"
)

// freezeModule is the converter, run through the Go module proxy when no
// freeze binary is on PATH.
const freezeModule = "github.com/charmbracelet/freeze@v0.2.2"

func main() {
	time.Local = time.UTC // frames show clock times; they must not depend on the machine's zone
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "screenshots:", err)
		os.Exit(1)
	}
}

func run() error {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	dir := "screenshots"
	if _, err := os.Stat(dir); err != nil {
		return fmt.Errorf("run from the repository root (make screenshots): %w", err)
	}
	frames, err := screenshots.Render(ctx)
	if err != nil {
		return err
	}
	var pngErrs []error
	for _, f := range frames {
		ans := filepath.Join(dir, f.Name+".ans")
		if err := os.WriteFile(ans, []byte(f.ANSI), 0o644); err != nil {
			return err
		}
		png := filepath.Join(dir, f.Name+".png")
		if err := toPNG(ctx, ans, png); err != nil {
			pngErrs = append(pngErrs, fmt.Errorf("%s: %w", png, err))
			continue
		}
		fmt.Printf("%s  %s (%dx%d)\n", png, f.Title, f.Width, f.Height)
	}
	return errors.Join(pngErrs...)
}

// The board's glyphs (✖ ▲ ✓ ↻) are missing from freeze's built-in JetBrains
// Mono. When rsvg-convert and DejaVu Sans Mono (which has them) are present,
// freeze writes an SVG whose font is switched to DejaVu and rsvg-convert
// rasterises it; otherwise freeze's own PNG is used and those glyphs show as
// boxes.
const fallbackFont = "DejaVu Sans Mono"

var (
	emptySpan = regexp.MustCompile(`<tspan[^>]*/>`)
	braille   = regexp.MustCompile(`[\x{2800}-\x{28FF}]`)
)

func toPNG(ctx context.Context, ans, png string) error {
	if rsvg, err := exec.LookPath("rsvg-convert"); err == nil && hasFont(ctx, fallbackFont) {
		svg := strings.TrimSuffix(png, ".png") + ".svg"
		defer os.Remove(svg)
		if err := freeze(ctx, ans, svg); err != nil {
			return err
		}
		b, err := os.ReadFile(svg)
		if err != nil {
			return err
		}
		b = []byte(strings.ReplaceAll(string(b), `font-family="JetBrains Mono"`, `font-family="`+fallbackFont+`"`))
		b = emptySpan.ReplaceAll(b, nil)       // librsvg drops the text after an empty <tspan/>
		b = braille.ReplaceAll(b, []byte("*")) // the spinner: DejaVu Sans Mono has no braille, a fallback font shifts the line
		if err := os.WriteFile(svg, b, 0o644); err != nil {
			return err
		}
		if out, err := exec.CommandContext(ctx, rsvg, "--zoom", "2", svg, "--output", png).CombinedOutput(); err != nil {
			return fmt.Errorf("rsvg-convert: %w: %s", err, out)
		}
		return nil
	}
	fmt.Fprintf(os.Stderr, "note: rsvg-convert or %s missing; %s uses freeze's font, some glyphs show as boxes\n", fallbackFont, png)
	if err := freeze(ctx, ans, png); err != nil {
		return err
	}
	return halve(png) // freeze renders PNGs at four times the size
}

// freeze renders an ANSI frame to SVG or PNG (by the output's extension).
func freeze(ctx context.Context, ans, out string) error {
	args := []string{ans, "--language", "ansi", "--output", out, "--window", "--padding", "20", "--font.size", "14"}
	var cmd *exec.Cmd
	if path, err := exec.LookPath("freeze"); err == nil {
		cmd = exec.CommandContext(ctx, path, args...)
	} else {
		cmd = exec.CommandContext(ctx, "go", append([]string{"run", freezeModule}, args...)...)
	}
	if b, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("freeze: %w: %s", err, b)
	}
	return nil
}

// hasFont asks fontconfig whether the family is installed.
func hasFont(ctx context.Context, family string) bool {
	out, err := exec.CommandContext(ctx, "fc-list", family, "family").Output()
	return err == nil && strings.Contains(string(out), family)
}
