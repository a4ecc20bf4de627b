"use strict";

module.exports = {
  register({ strapi }) {
    strapi.db.lifecycles.subscribe((event) => {
      if (!["afterCreate", "afterUpdate", "afterDelete"].includes(event.action)) return;
      strapi.log.info(`[audit-trail] ${event.action} ${event.model.uid} #${event.result && event.result.id}`);
    });
  },
  bootstrap() {},
  config: { default: {}, validator() {} },
};
