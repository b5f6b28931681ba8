#!/usr/bin/env bash
# Rolls out one overlay with plain kubectl: migrations first, then the apps.
#   deploy/rollout.sh deploy/overlays/production
# (Argo CD does the same by itself: the migration Job is a PreSync hook.)
set -euo pipefail
overlay="${1:?usage: deploy/rollout.sh <overlay dir>}"
ns="$(kubectl kustomize "$overlay" | awk '/^  namespace:/ {print $2; exit}')"

# 1. The migration Job: a Job's pod template is immutable, so replace the last one.
kubectl -n "$ns" delete job genhub-migrate --ignore-not-found --wait=true
kubectl apply -k "$overlay" -l app.kubernetes.io/component=migrate
kubectl -n "$ns" wait --for=condition=complete --timeout=10m job/genhub-migrate

# 2. Everything else; then wait for every Deployment to finish rolling.
kubectl apply -k "$overlay" -l 'app.kubernetes.io/component!=migrate'
for d in gateway task-worker webhook-dispatcher billing; do
  kubectl -n "$ns" rollout status "deployment/genhub-$d" --timeout=10m
done
