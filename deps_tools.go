//go:build tools

// Temporary: pins the project's planned dependencies in go.mod while the
// packages that use them are being written in parallel. Removed at the end.
package main

import (
	_ "charm.land/bubbles/v2/table"
	_ "charm.land/bubbletea/v2"
	_ "charm.land/lipgloss/v2"
	_ "github.com/charmbracelet/x/ansi"
	_ "github.com/charmbracelet/x/exp/teatest/v2"
	_ "github.com/coreos/go-oidc/v3/oidc"
	_ "github.com/gofrs/flock"
	_ "github.com/google/go-cmp/cmp"
	_ "github.com/google/go-containerregistry/pkg/v1/remote"
	_ "github.com/google/go-github/v84/github"
	_ "github.com/spf13/cobra"
	_ "github.com/zitadel/oidc/v3/example/server/storage"
	_ "github.com/zitadel/oidc/v3/pkg/op"
	_ "golang.org/x/oauth2"
	_ "k8s.io/client-go/dynamic/dynamicinformer"
	_ "k8s.io/client-go/dynamic/fake"
	_ "k8s.io/client-go/informers"
	_ "k8s.io/client-go/kubernetes/fake"
	_ "k8s.io/client-go/tools/clientcmd"
	_ "sigs.k8s.io/yaml"
)
