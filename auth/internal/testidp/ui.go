package testidp

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"html"
	"net/http"
	"sync"

	"github.com/zitadel/oidc/v3/example/server/storage"
)

// loginHandler is the username/password page the provider sends the browser
// to for the authorization code flow (the client's LoginURL).
func loginHandler(st *idpStorage, callback func(context.Context, string) string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if err := r.ParseForm(); err != nil {
			http.Error(w, "bad form", http.StatusBadRequest)
			return
		}
		if r.Method == http.MethodGet {
			fmt.Fprintf(w, `<form method="POST" action="/login/username"><input type="hidden" name="id" value="%s">`+
				`<input name="username"><input name="password" type="password"><button>Login</button></form>`,
				html.EscapeString(r.FormValue("authRequestID")))
			return
		}
		id := r.FormValue("id")
		if err := st.CheckUsernamePassword(r.FormValue("username"), r.FormValue("password"), id); err != nil {
			http.Error(w, "login failed: "+err.Error(), http.StatusUnauthorized)
			return
		}
		http.Redirect(w, r, callback(r.Context(), id), http.StatusFound)
	}
}

// deviceUI is the page where the user enters the device code, logs in and
// approves or denies.
type deviceUI struct {
	store    *idpStorage
	mu       sync.Mutex
	sessions map[string]deviceSession
}

type deviceSession struct{ userCode, username string }

func (d *deviceUI) register(mux *http.ServeMux) {
	mux.HandleFunc("GET /device", d.form)
	mux.HandleFunc("POST /device/login", d.login)
	mux.HandleFunc("POST /device/confirm", d.confirm)
}

func (d *deviceUI) form(w http.ResponseWriter, r *http.Request) {
	code := html.EscapeString(r.URL.Query().Get("user_code"))
	fmt.Fprintf(w, `<form method="POST" action="/device/login"><input name="user_code" value="%s">`+
		`<input name="username"><input name="password" type="password"><button>Login</button></form>`, code)
}

func (d *deviceUI) login(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		http.Error(w, "bad form", http.StatusBadRequest)
		return
	}
	code, user := r.PostForm.Get("user_code"), r.PostForm.Get("username")
	if err := d.store.CheckUsernamePasswordSimple(user, r.PostForm.Get("password")); err != nil {
		http.Error(w, "login failed", http.StatusUnauthorized)
		return
	}
	state, err := d.store.GetDeviceAuthorizationByUserCode(r.Context(), code)
	if err != nil {
		http.Error(w, "unknown code", http.StatusNotFound)
		return
	}
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	sid := hex.EncodeToString(b)
	d.mu.Lock()
	d.sessions[sid] = deviceSession{userCode: code, username: user}
	d.mu.Unlock()
	http.SetCookie(w, &http.Cookie{Name: "device_session", Value: sid, Path: "/device", HttpOnly: true})
	fmt.Fprintf(w, `<p>%s wants %v for %s</p><form method="POST" action="/device/confirm">`+
		`<button name="action" value="allowed">Allow</button><button name="action" value="denied">Deny</button></form>`,
		html.EscapeString(state.ClientID), state.Scopes, html.EscapeString(user))
}

func (d *deviceUI) confirm(w http.ResponseWriter, r *http.Request) {
	ck, err := r.Cookie("device_session")
	if err != nil {
		http.Error(w, "no session", http.StatusUnauthorized)
		return
	}
	d.mu.Lock()
	sess, ok := d.sessions[ck.Value]
	delete(d.sessions, ck.Value)
	d.mu.Unlock()
	if !ok {
		http.Error(w, "no session", http.StatusUnauthorized)
		return
	}
	switch r.FormValue("action") {
	case "allowed":
		err = d.store.CompleteDeviceAuthorization(r.Context(), sess.userCode, sess.username)
	case "denied":
		err = d.store.DenyDeviceAuthorization(r.Context(), sess.userCode)
	default:
		http.Error(w, "action must be allowed or denied", http.StatusBadRequest)
		return
	}
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	fmt.Fprintf(w, "Device authorization %s.", r.FormValue("action"))
}

var _ storage.UserStore = users{}
