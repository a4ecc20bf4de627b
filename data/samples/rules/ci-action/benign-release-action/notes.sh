#!/bin/bash
set -euo pipefail
notes=$(git log --pretty='- %s' "$(git describe --tags --abbrev=0 HEAD^)..HEAD")
curl -sS -X PATCH -H "Authorization: Bearer $GH_TOKEN" -H 'Accept: application/json' \
  --data "$(jq -n --arg b "$notes" '{body: $b}')" "$GITHUB_API_URL/repos/$GITHUB_REPOSITORY/releases/$RELEASE_ID"
