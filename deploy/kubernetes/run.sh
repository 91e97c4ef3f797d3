#!/bin/sh
# The whole sweep on Kubernetes: storage and endpoints, the indexed shards, then the merge.
# Build and push the client image first (deploy/Dockerfile) and set it in shards-job.yaml and merge-job.yaml.
set -eu
cd "$(dirname "$0")"
kubectl apply -f pvc.yaml -f vllm.yaml
kubectl rollout status deployment/vllm-a --timeout=30m
kubectl rollout status deployment/vllm-b --timeout=30m
kubectl apply -f shards-job.yaml
kubectl wait --for=condition=complete job/memagent-shards --timeout=72h
kubectl apply -f merge-job.yaml
kubectl wait --for=condition=complete job/memagent-merge --timeout=1h
