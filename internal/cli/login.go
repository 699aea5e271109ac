package cli

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"net/http"
	"os"
	"runtime"
	"time"

	"github.com/spf13/cobra"

	"github.com/hanzoai/driftboard/auth"
	"github.com/hanzoai/driftboard/internal/termtext"
)

// session builds the IAM session from the effective issuer and client id and
// the token store shared with the hanzo CLI (HANZO_HOME, else ~/.hanzo).
func (a *app) session() (*auth.Session, error) {
	eff, err := a.effective()
	if err != nil {
		return nil, err
	}
	dir, err := auth.DefaultStoreDir(a.streams.Getenv)
	if err != nil {
		return nil, err
	}
	store, rust := auth.NewStore(dir), auth.DefaultRustStore(a.streams.Getenv)
	tighten := []func() (string, error){store.Tighten}
	if rust != nil {
		tighten = append(tighten, rust.Tighten) // the Rust CLI's tokens, as ~/.hanzo
	}
	for _, f := range tighten {
		if notice, err := f(); err != nil {
			return nil, err
		} else if notice != "" {
			a.log.Warn(notice)
			if a.streams.Err != nil {
				fmt.Fprintln(a.streams.Err, "notice: "+termtext.Sanitize(notice))
			}
		}
	}
	hc, err := idpHTTPClient(a.streams.Getenv)
	if err != nil {
		return nil, err
	}
	return auth.NewSession(auth.Options{
		Settings:   auth.Settings{Issuer: eff.Issuer, ClientID: eff.ClientID},
		Store:      store,
		RustStore:  rust,
		EnvToken:   a.streams.Getenv(auth.EnvToken),
		HTTPClient: hc,
	}), nil
}

// idpHTTPClient talks to the IdP. SSL_CERT_FILE, read through the injected
// environment, replaces the system's trust roots as Go itself does (an IdP
// behind a private CA); nil means the session's default client.
func idpHTTPClient(getenv func(string) string) (*http.Client, error) {
	file := getenv("SSL_CERT_FILE")
	if file == "" {
		return nil, nil
	}
	pem, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("SSL_CERT_FILE: %w", err)
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(pem) {
		return nil, fmt.Errorf("SSL_CERT_FILE %s holds no PEM certificate", file)
	}
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.TLSClientConfig = &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}
	return &http.Client{Transport: tr, Timeout: 30 * time.Second}, nil
}

func (a *app) loginCommand() *cobra.Command {
	var device, skipOpen bool
	var grant, listen string
	var timeout time.Duration
	cmd := &cobra.Command{
		Use:   "login",
		Short: "Log in to Hanzo IAM (browser with PKCE, or a device code)",
		Long: `Log in to Hanzo IAM. --grant-type auto (the default) uses the authorization
code flow with PKCE and a redirect to 127.0.0.1 when a browser on this machine can
reach you, and the device flow (a code to enter on any device) when it cannot:
stdin is not a terminal, the session is remote (SSH), or on Linux there is no
display (DISPLAY and WAYLAND_DISPLAY unset). --grant-type device or authcode
forces one. The login is stored in ~/.hanzo (HANZO_HOME) and shared with the
hanzo CLI: a 'hanzo login' counts here too. Prompts go to stderr.`,
		Example: `  driftboard login
  driftboard login --grant-type device             # on a server, or over SSH
  driftboard login --grant-type authcode --skip-open-browser --listen-address 127.0.0.1:8000
                                                   # e.g. with ssh -L 8000:127.0.0.1:8000
  driftboard login --issuer https://iam.example.com --client-id my-cli`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if device {
				if cmd.Flags().Changed("grant-type") && grant != grantDevice {
					return usageErr("--device and --grant-type %s exclude each other", grant)
				}
				grant = grantDevice
			}
			choice, err := chooseGrant(grant, a.streams.InTerminal, a.streams.Getenv, runtime.GOOS)
			if err != nil {
				return err
			}
			if err := checkListenAddress(listen); err != nil {
				return err
			}
			s, err := a.session()
			if err != nil {
				return err
			}
			ctx, cancel := context.WithTimeout(cmd.Context(), timeout)
			defer cancel()
			prompt := a.printPrompt
			opts := auth.LoginOptions{Prompt: prompt, Device: !choice.browser, ListenAddress: listen}
			if choice.browser {
				opts.OpenBrowser = openBrowser
				if skipOpen {
					opts.OpenBrowser = func(string) error { return nil }
					opts.Prompt = func(p auth.Prompt) {
						if p.Kind == auth.PromptBrowser {
							fmt.Fprintf(a.streams.Err, "Open this URL in a browser on this machine:\n  %s\n", p.BrowserURL)
							return
						}
						prompt(p)
					}
				}
			}
			if choice.reason != "" {
				fmt.Fprintf(a.streams.Err, "Using the device code flow: %s (--grant-type authcode to use a browser anyway).\n", choice.reason)
			}
			fmt.Fprintf(a.streams.Err, "Logging in to %s as client %s…\n", s.Issuer(), s.ClientID())
			who, err := s.Login(ctx, opts)
			if err != nil {
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "Logged in as %s (%s), token valid for %s.\n",
				who.User, who.Role, who.ExpiresIn(time.Now()).Round(time.Minute))
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&grant, "grant-type", grantAuto, "auto (browser when one can reach you, else device), device or authcode")
	f.StringVar(&listen, "listen-address", "", "host:port (loopback) for the authcode redirect (default 127.0.0.1 and a free port)")
	f.BoolVar(&skipOpen, "skip-open-browser", false, "authcode: print the URL instead of opening a browser")
	f.BoolVar(&device, "device", false, "the same as --grant-type device")
	f.DurationVar(&timeout, "timeout", 15*time.Minute, "give up after this long")
	completeFixed(cmd, "grant-type", grantAuto, grantDevice, grantAuthcode)
	return cmd
}

// printPrompt shows login prompts on stderr; stdout stays for data.
func (a *app) printPrompt(p auth.Prompt) {
	w := a.streams.Err
	if p.Note != "" {
		fmt.Fprintln(w, p.Note)
	}
	switch p.Kind {
	case auth.PromptBrowser:
		fmt.Fprintf(w, "Your browser should open. If it does not, open:\n  %s\n", p.BrowserURL)
	default:
		fmt.Fprintf(w, "Open %s and enter the code:\n\n    %s\n\n", p.VerificationURI, p.UserCode)
		if p.VerificationURIComplete != "" {
			fmt.Fprintf(w, "Or open this link, which carries the code:\n  %s\n", p.VerificationURIComplete)
		}
		if !p.ExpiresAt.IsZero() {
			fmt.Fprintf(w, "The code expires at %s. Waiting for approval…\n", p.ExpiresAt.Local().Format("15:04"))
		}
	}
}

func (a *app) logoutCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "logout",
		Short: "Revoke and remove the stored IAM login (shared with the hanzo CLI)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			s, err := a.session()
			if err != nil {
				return err
			}
			res, err := s.Logout(cmd.Context())
			if err != nil {
				return err
			}
			switch {
			case !res.HadLogin:
				fmt.Fprintln(cmd.OutOrStdout(), "Not logged in; nothing to remove.")
			case res.Revoked:
				fmt.Fprintln(cmd.OutOrStdout(), "Logged out; the session was revoked at the identity provider.")
			default:
				fmt.Fprintln(cmd.OutOrStdout(), "Logged out; the login was removed from this machine.")
			}
			if res.Note != "" {
				fmt.Fprintln(a.streams.Err, "notice: "+res.Note)
			}
			return nil
		},
	}
}

func (a *app) whoamiCommand() *cobra.Command {
	var output string
	cmd := &cobra.Command{
		Use:   "whoami",
		Short: "Show who you are logged in as, your role and the token's time left",
		Example: `  driftboard whoami
  driftboard whoami -o json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if output != "text" && output != "json" {
				return usageErr("-o must be text or json, not %q", output)
			}
			s, err := a.session()
			if err != nil {
				return err
			}
			who, err := s.WhoAmI(cmd.Context())
			if err != nil {
				return err
			}
			out := cmd.OutOrStdout()
			if output == "json" {
				return writeJSON(out, who)
			}
			left := who.ExpiresIn(time.Now()).Round(time.Minute)
			clean := termtext.Sanitize
			fmt.Fprintf(textOut(out), "User:     %s\nEmail:    %s\nHome org: %s\nRole:     %s\nExpires:  %s (in %s)\nIssuer:   %s\nFrom:     %s\n",
				clean(who.User), clean(dash(who.Email)), clean(dash(who.HomeOrg)), clean(who.Role),
				who.ExpiresAt.Local().Format(time.RFC3339), left, clean(who.Issuer), clean(who.Source))
			return nil
		},
	}
	cmd.Flags().StringVarP(&output, "output", "o", "text", "output format: text|json")
	completeFixed(cmd, "output", "text", "json")
	return cmd
}
