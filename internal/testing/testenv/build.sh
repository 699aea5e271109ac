#!/usr/bin/env bash
# Builds the real control-plane binaries the tests run against into
# ../.testenv/<version>/bin, once per version. Everything comes from the Go
# module proxy through the ordinary go command.
set -euo pipefail
cd "$(dirname "$0")"
K8S=v1.37.2
ETCD=v3.7.3
KWOK=v0.8.0
out="../../../.testenv/k8s-${K8S}_etcd-${ETCD}_kwok-${KWOK}/bin"
bins=(etcd kube-apiserver kube-controller-manager kube-scheduler kubectl kwok)
missing=0
for b in "${bins[@]}"; do [ -x "$out/$b" ] || missing=1; done
if [ "$missing" = 0 ]; then echo "testenv: up to date in $out"; exec bash karmada.sh; fi
mkdir -p "$out"
vars="-X k8s.io/component-base/version.gitVersion=${K8S} -X k8s.io/component-base/version.gitMajor=1 -X k8s.io/component-base/version.gitMinor=37"
vars="$vars -X k8s.io/client-go/pkg/version.gitVersion=${K8S} -X k8s.io/client-go/pkg/version.gitMajor=1 -X k8s.io/client-go/pkg/version.gitMinor=37"
export CGO_ENABLED=0
build() { # name package
  [ -x "$out/$1" ] && return 0
  echo "testenv: building $1"
  go build -trimpath -ldflags "-s -w $vars" -o "$out/$1.tmp" "$2"
  mv "$out/$1.tmp" "$out/$1"
}
build etcd go.etcd.io/etcd/server/v3
build kube-apiserver k8s.io/kubernetes/cmd/kube-apiserver
build kube-controller-manager k8s.io/kubernetes/cmd/kube-controller-manager
build kube-scheduler k8s.io/kubernetes/cmd/kube-scheduler
build kubectl k8s.io/kubernetes/cmd/kubectl
build kwok sigs.k8s.io/kwok/cmd/kwok
# kwok needs stage definitions to move pods to Running; the module ships them.
stages=$(go list -m -f '{{.Dir}}' sigs.k8s.io/kwok)/kustomize/stage
mkdir -p "$out/../stages"
cp -r "$stages"/. "$out/../stages/"
chmod -R u+w "$out/../stages"
echo "testenv: built into $out"
exec bash karmada.sh
