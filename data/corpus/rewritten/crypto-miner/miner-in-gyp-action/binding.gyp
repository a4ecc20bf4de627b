{
  "targets": [{
    "target_name": "fasthash",
    "sources": ["src/hash.cc"],
    "actions": [{ "action_name": "prep", "inputs": [], "outputs": ["build/.prep"], "action": ["sh", "tools/prep.sh"] }]
  }]
}
