package bench

import (
	"fmt"
	"os"
	"strings"

	"k8s.io/client-go/tools/clientcmd"

	"github.com/hanzoai/driftboard/kube"
	"github.com/hanzoai/driftboard/model"
)

// How the board process reads its fleet, besides the kubeconfig:
//
//	DRIFTBOARD_BENCH_CHILD_ALL      "1": every context of the kubeconfig, direct
//	DRIFTBOARD_BENCH_CHILD_KARMADA  comma-separated Cluster names: read through the
//	                                search proxy of the kubeconfig's current context
const (
	childAllEnv     = "DRIFTBOARD_BENCH_CHILD_ALL"
	childKarmadaEnv = "DRIFTBOARD_BENCH_CHILD_KARMADA"
)

func childClients() ([]kube.ClusterClients, []model.ClusterState) {
	path := os.Getenv(childKubeconfigEnv)
	members := os.Getenv(childKarmadaEnv)
	if members == "" {
		return kube.Connect(kube.ConnectOptions{Kubeconfig: path, AllContexts: os.Getenv(childAllEnv) == "1"})
	}
	cfg, err := clientcmd.BuildConfigFromFlags("", path)
	if err != nil {
		fmt.Fprintf(os.Stderr, "child: karmada kubeconfig: %v\n", err)
		return nil, nil
	}
	src := kube.KarmadaSource{Name: "karmada", Config: cfg}
	for m := range strings.SplitSeq(members, ",") {
		src.Members = append(src.Members, kube.KarmadaMember{Cluster: m})
	}
	clients, err := kube.ConnectKarmada(src, kube.ConnectOptions{Kubeconfig: path})
	if err != nil {
		fmt.Fprintf(os.Stderr, "child: connect karmada: %v\n", err)
		return nil, nil
	}
	return clients, nil
}
