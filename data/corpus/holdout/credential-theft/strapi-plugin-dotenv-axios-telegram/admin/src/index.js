export default {
  register(app) {
    app.registerPlugin({ id: "audit-trail", name: "Audit Trail" });
  },
};
