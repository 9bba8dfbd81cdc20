/**
 * The console's script, served at `/console/app.js` (the policy runs no inline script). It renders each view from
 * the platform's own API, called with `fetch` relative to the page (so under any mount prefix) with the browser's
 * Basic credentials; every mutation carries a fresh `Idempotency-Key`. Text from the API reaches the page through
 * `textContent` only, never as markup. Plain ES2020, no dependencies.
 */
export const script = String.raw`"use strict";
(function () {
  var main = document.getElementById("view");
  var api = main.getAttribute("data-api") + "/";
  var nav = document.querySelectorAll("nav a");
  var eventsUrl = "console/events";

  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (name) {
      if (attrs[name] === undefined) return;
      if (name === "text") node.textContent = attrs[name];
      else if (name === "on") Object.keys(attrs.on).forEach(function (type) { node.addEventListener(type, attrs.on[type]); });
      else node.setAttribute(name, attrs[name]);
    });
    (children || []).forEach(function (child) {
      if (child === null || child === undefined) return;
      node.appendChild(typeof child === "string" ? document.createTextNode(child) : child);
    });
    return node;
  }

  // crypto.randomUUID exists only in secure contexts; a sandbox server on a LAN address over http is not one.
  function idempotencyKey() {
    var bytes = crypto.getRandomValues(new Uint8Array(16));
    return "console-" + Array.from(bytes, function (byte) { return (byte + 256).toString(16).slice(1); }).join("");
  }

  function call(method, path, body) {
    var headers = { accept: "application/json" };
    if (method !== "GET") {
      headers["idempotency-key"] = idempotencyKey();
      if (body !== undefined) headers["content-type"] = "application/json";
    }
    return fetch(path.indexOf("console/") === 0 ? path : api + path, {
      method: method,
      headers: headers,
      credentials: "same-origin",
      body: body === undefined ? undefined : JSON.stringify(body)
    }).then(function (response) {
      return response.text().then(function (text) {
        var parsed = null;
        try { parsed = text === "" ? null : JSON.parse(text); } catch (ignored) { parsed = text; }
        return { status: response.status, body: parsed };
      });
    });
  }

  function get(path) {
    return call("GET", path).then(function (answer) {
      if (answer.status === 200) return answer.body;
      var reason = answer.body && answer.body.reason ? answer.body.reason : "HTTP " + answer.status;
      throw new Error(answer.status === 401 ? "Your sign-in was refused; reload the page to sign in again." : reason);
    });
  }

  function money(value) {
    if (!value || !value.currency) return "";
    var decimals = value.currency.decimals || 0;
    var digits = String(Math.abs(value.amount)).padStart(decimals + 1, "0");
    var whole = decimals === 0 ? digits : digits.slice(0, digits.length - decimals) + "." + digits.slice(digits.length - decimals);
    return (value.amount < 0 ? "-" : "") + whole + " " + value.currency.code;
  }

  function when(iso) { return iso ? String(iso).replace("T", " ").replace(/\.\d+Z$|Z$/, "") + " UTC" : ""; }

  var pageSize = 50;

  function paged(path, cursor) { return path + "?limit=" + pageSize + (cursor ? "&cursor=" + encodeURIComponent(cursor) : ""); }

  function pager(view, cursor, page) {
    if (!cursor && !page.hasMore) return null;
    return el("nav", { "aria-label": "Pages" }, [
      cursor ? link(view, "Newest") : null,
      cursor && page.hasMore ? " · " : null,
      page.hasMore ? link(view + "/" + encodeURIComponent(page.nextCursor), "Older") : null
    ]);
  }

  function link(hash, text) { return el("a", { href: "#" + hash, text: text }); }

  function table(caption, columns, rows, empty) {
    if (rows.length === 0) return el("p", { class: "muted", text: empty });
    return el("table", {}, [
      el("caption", { class: "muted", text: caption }),
      el("thead", {}, [el("tr", {}, columns.map(function (column) { return el("th", { scope: "col", text: column[0] }); }))]),
      el("tbody", {}, rows.map(function (row) {
        return el("tr", {}, columns.map(function (column) {
          var value = column[1](row);
          return el("td", column[2] ? { class: column[2] } : {}, [value === undefined || value === null ? "" : typeof value === "object" ? value : String(value)]);
        }));
      }))
    ]);
  }

  function details(pairs) {
    var list = el("dl");
    pairs.forEach(function (pair) {
      if (pair[1] === undefined || pair[1] === null || pair[1] === "") return;
      list.appendChild(el("dt", { text: pair[0] }));
      list.appendChild(el("dd", {}, [typeof pair[1] === "object" ? pair[1] : String(pair[1])]));
    });
    return list;
  }

  function json(value) { return el("pre", { tabindex: "0", text: JSON.stringify(value, null, 2) }); }

  function customerName(customer) {
    return customer.fullName || (customer.businessInfo && customer.businessInfo.legalName) || customer.platformCustomerId;
  }

  function history(resource, events) {
    var id = resource.id;
    var created = { timestamp: resource.createdAt, type: "Created", data: { id: id, status: "" } };
    var rows = [created].concat(events.filter(function (event) {
      return event.data && (event.data.id === id || event.data.quoteId === id);
    })).sort(function (a, b) { return a.timestamp < b.timestamp ? -1 : a.timestamp > b.timestamp ? 1 : 0; });
    return [
      el("h3", { text: "State history" }),
      table("Each state change, oldest first, from the webhook events the platform sent", [
        ["Time", function (event) { return when(event.timestamp); }],
        ["Event", function (event) { return event.type; }],
        ["Resource", function (event) { return event.data.id; }, "mono"],
        ["Status", function (event) { return event.data.status; }, "status"]
      ], rows, ""),
      rows.length > 1 ? null : el("p", { class: "muted", text: "No state changes recorded yet: they come from the webhook events of the platform's newest deliveries, so set a webhook endpoint (PATCH /config) to record them." })
    ];
  }

  var views = {
    customers: function (cursor) {
      return get(paged("customers", cursor)).then(function (page) {
        return [el("h2", { text: "Customers" }), table((page.totalCount === undefined ? "" : page.totalCount + " customers, ") + "newest first", [
          ["Name", function (customer) { return link("customer/" + customer.id, customerName(customer)); }],
          ["Type", function (customer) { return customer.customerType; }],
          ["Platform customer id", function (customer) { return customer.platformCustomerId; }, "mono"],
          ["Verification", function (customer) { return customer.kycStatus || customer.kybStatus; }],
          ["Created", function (customer) { return when(customer.createdAt); }]
        ], page.data, "No customers yet."), pager("customers", cursor, page)];
      });
    },
    customer: function (id) {
      return Promise.all([get("customers/" + encodeURIComponent(id)), get("internal-accounts?limit=100&customerId=" + encodeURIComponent(id)), get("transactions?limit=20&customerId=" + encodeURIComponent(id))]).then(function (found) {
        var customer = found[0];
        return [
          el("h2", { text: customerName(customer) }),
          details([["Customer id", customer.id], ["Type", customer.customerType], ["Platform customer id", customer.platformCustomerId], ["Email", customer.email], ["UMA address", customer.umaAddress], ["Verification", customer.kycStatus || customer.kybStatus], ["Created", when(customer.createdAt)]]),
          el("h3", { text: "Accounts and balances" }),
          table("The customer's internal accounts", [
            ["Account", function (account) { return account.id; }, "mono"],
            ["Type", function (account) { return account.type; }],
            ["Status", function (account) { return account.status; }],
            ["Available", function (account) { return money(account.balance); }, "num"],
            ["Total", function (account) { return money(account.totalBalance); }, "num"]
          ], found[1].data, "No internal accounts."),
          el("h3", { text: "Transactions" }),
          table("The customer's newest transactions", [
            ["Transaction", function (transaction) { return link("transaction/" + transaction.id, transaction.id); }, "mono"],
            ["Type", function (transaction) { return transaction.type; }],
            ["Status", function (transaction) { return transaction.status; }, "status"],
            ["Sent", function (transaction) { return money(transaction.sentAmount); }, "num"],
            ["Received", function (transaction) { return money(transaction.receivedAmount); }, "num"]
          ], found[2].data, "No transactions yet."),
          el("p", {}, [link("customers", "Back to customers")])
        ];
      });
    },
    quotes: function (cursor) {
      return get(paged("quotes", cursor)).then(function (page) {
        return [el("h2", { text: "Quotes" }), table("Quotes, newest first", [
          ["Quote", function (quote) { return link("quote/" + quote.id, quote.id); }, "mono"],
          ["Status", function (quote) { return quote.status; }, "status"],
          ["Sending", function (quote) { return money({ amount: quote.totalSendingAmount, currency: quote.sendingCurrency }); }, "num"],
          ["Receiving", function (quote) { return money({ amount: quote.totalReceivingAmount, currency: quote.receivingCurrency }); }, "num"],
          ["Rate", function (quote) { return quote.exchangeRate; }, "num"],
          ["Created", function (quote) { return when(quote.createdAt); }]
        ], page.data, "No quotes yet."), pager("quotes", cursor, page)];
      });
    },
    quote: function (id) {
      return Promise.all([get("quotes/" + encodeURIComponent(id)), get(eventsUrl)]).then(function (found) {
        var quote = found[0];
        return [el("h2", { text: "Quote " + quote.id }), details([
          ["Status", quote.status], ["Customer", quote.customerId ? link("customer/" + quote.customerId, quote.customerId) : ""],
          ["Sending", money({ amount: quote.totalSendingAmount, currency: quote.sendingCurrency })],
          ["Receiving", money({ amount: quote.totalReceivingAmount, currency: quote.receivingCurrency })],
          ["Exchange rate", quote.exchangeRate], ["Fees", money({ amount: quote.feesIncluded, currency: quote.sendingCurrency })],
          ["Transaction", quote.transactionId ? link("transaction/" + quote.transactionId, quote.transactionId) : ""],
          ["Created", when(quote.createdAt)], ["Expires", when(quote.expiresAt)]
        ]), quote.status === "PENDING" && quote.source && quote.source.sourceType === "REALTIME_FUNDING"
          ? el("p", {}, [link("simulators/" + encodeURIComponent(quote.id + " " + quote.sendingCurrency.code), "Pay it with the send simulator")])
          : null].concat(history(quote, found[1].data));
      });
    },
    transactions: function (cursor) {
      return get(paged("transactions", cursor)).then(function (page) {
        return [el("h2", { text: "Transactions" }), table("Transactions, newest first", [
          ["Transaction", function (transaction) { return link("transaction/" + transaction.id, transaction.id); }, "mono"],
          ["Type", function (transaction) { return transaction.type; }],
          ["Status", function (transaction) { return transaction.status; }, "status"],
          ["Sent", function (transaction) { return money(transaction.sentAmount); }, "num"],
          ["Received", function (transaction) { return money(transaction.receivedAmount); }, "num"],
          ["Created", function (transaction) { return when(transaction.createdAt); }]
        ], page.data, "No transactions yet."), pager("transactions", cursor, page)];
      });
    },
    transaction: function (id) {
      return Promise.all([get("transactions/" + encodeURIComponent(id)), get(eventsUrl)]).then(function (found) {
        var transaction = found[0];
        return [el("h2", { text: "Transaction " + transaction.id }), details([
          ["Status", transaction.status], ["Type", transaction.type], ["Customer", transaction.customerId ? link("customer/" + transaction.customerId, transaction.customerId) : ""],
          ["Sent", money(transaction.sentAmount)], ["Received", money(transaction.receivedAmount)], ["Exchange rate", transaction.exchangeRate],
          ["Quote", transaction.quoteId ? link("quote/" + transaction.quoteId, transaction.quoteId) : ""], ["Failure", transaction.failureReason],
          ["Created", when(transaction.createdAt)], ["Settled", when(transaction.settledAt)]
        ])].concat(history(transaction, found[1].data));
      });
    },
    webhooks: function (cursor) {
      return get(paged("webhooks/deliveries", cursor)).then(function (page) {
        return [el("h2", { text: "Webhook deliveries" }), table("Deliveries, newest first; open one for its payload and response", [
          ["Event", function (delivery) { return link("delivery/" + delivery.id, delivery.eventType); }],
          ["Status", function (delivery) { return delivery.status; }, "status"],
          ["Attempts", function (delivery) { return delivery.attempts; }, "num"],
          ["Response", function (delivery) { return response(delivery); }],
          ["Last attempt", function (delivery) { return when(delivery.lastAttemptAt); }],
          ["Actions", function (delivery) { return redeliverButton(delivery); }]
        ], page.data, "No deliveries yet: set the platform's webhookEndpoint (PATCH /config) and they appear here."), pager("webhooks", cursor, page)];
      });
    },
    delivery: function (id) {
      return Promise.all([get("webhooks/deliveries/" + encodeURIComponent(id)), get(eventsUrl)]).then(function (found) {
        var delivery = found[0];
        var event = found[1].data.filter(function (candidate) { return candidate.id === delivery.eventId; })[0];
        return [
          el("h2", { text: "Delivery of " + delivery.eventType }),
          details([["Delivery id", delivery.id], ["Webhook id", delivery.eventId], ["URL", delivery.url], ["Status", delivery.status], ["Attempts", delivery.attempts], ["Next attempt", when(delivery.nextAttemptAt)], ["Created", when(delivery.createdAt)]]),
          redeliverButton(delivery),
          el("h3", { text: "Payload" }),
          event ? json(event) : el("p", { class: "muted", text: "The event is not among the platform's newest deliveries." }),
          el("h3", { text: "Response" }),
          details([["Status code", delivery.lastResponseStatus], ["Latency", delivery.lastLatencyMillis === undefined ? "" : delivery.lastLatencyMillis + " ms"], ["Error", delivery.lastError], ["At", when(delivery.lastAttemptAt)]]),
          el("p", {}, [link("webhooks", "Back to deliveries")])
        ];
      });
    },
    clock: function () {
      return get("sandbox/clock").then(function (clock) {
        var seconds = el("input", { id: "advance-seconds", name: "seconds", type: "number", min: "1", max: "31622400", step: "1", value: "3600", required: "" });
        var status = el("p", { role: "status" });
        return [el("h2", { text: "Sandbox clock" }),
          details([["Platform time", el("span", { id: "clock-now", text: when(clock.currentTime) })], ["Advanced by", clock.offsetSeconds + " seconds"]]),
          form("Advance the clock", [el("label", { for: "advance-seconds" }, ["Seconds to move forward", seconds])], "Advance", status, function () {
            return call("POST", "sandbox/clock/advance", { seconds: Number(seconds.value) }).then(function (answer) {
              if (answer.status !== 200) return report(status, answer);
              return render().then(function () { announce("Clock advanced by " + seconds.value + " seconds; now " + when(answer.body.currentTime)); });
            });
          })];
      });
    },
    // "simulators/<quote id> <currency>" opens the simulators with the send form filled in for that quote.
    simulators: function (prefill) {
      var quoteToPay = (prefill || "").split(" ");
      return Promise.all([get("internal-accounts?limit=100"), get("cards?limit=100")]).then(function (found) {
        var accounts = found[0].data.filter(function (account) { return account.type !== "EMBEDDED_WALLET"; });
        return [el("h2", { text: "Simulators" }), el("div", { class: "grid" }, [
          simulator("fund", "Fund an internal account", [select("Account", "accountId", accounts.map(function (account) { return [account.id, account.balance.currency.code + " " + account.id]; })), input("Amount (minor units)", "amount", "number", "10000")],
            function (values) { return call("POST", "sandbox/internal-accounts/" + encodeURIComponent(values.accountId) + "/fund", { amount: Number(values.amount) }); }),
          simulator("send", "Send: pay a real-time funded quote", [input("Quote id", "quoteId", "text", quoteToPay[0] || ""), input("Currency", "currencyCode", "text", quoteToPay[1] || "USD"), input("Amount (minor units, optional)", "currencyAmount", "number", "")],
            function (values) { var body = { quoteId: values.quoteId, currencyCode: values.currencyCode }; if (values.currencyAmount !== "") body.currencyAmount = Number(values.currencyAmount); return call("POST", "sandbox/send", body); }),
          simulator("uma", "Receive an UMA payment", [input("Sender UMA address", "senderUmaAddress", "text", "$sender@sandbox.example.com"), input("Receiver UMA address or customer id", "receiver", "text", ""), input("Currency", "receivingCurrencyCode", "text", "USD"), input("Amount (minor units)", "receivingCurrencyAmount", "number", "1000")],
            function (values) { var body = { senderUmaAddress: values.senderUmaAddress, receivingCurrencyCode: values.receivingCurrencyCode, receivingCurrencyAmount: Number(values.receivingCurrencyAmount) }; if (values.receiver.indexOf("Customer:") === 0) body.customerId = values.receiver; else body.receiverUmaAddress = values.receiver; return call("POST", "sandbox/uma/receive", body); }),
          simulator("card", "Card authorization", [select("Card", "cardId", found[1].data.map(function (card) { return [card.id, (card.last4 ? "•••• " + card.last4 + " " : "") + card.status + " " + card.id]; })), input("Amount (minor units)", "amount", "number", "1250"), input("Currency", "currency", "text", "USD"), input("Merchant", "descriptor", "text", "Corner Cafe")],
            function (values) { return call("POST", "sandbox/cards/" + encodeURIComponent(values.cardId) + "/simulate/authorization", { amount: Number(values.amount), currency: { code: values.currency }, merchant: { descriptor: values.descriptor } }); })
        ])];
      });
    }
  };

  function response(delivery) {
    if (delivery.lastResponseStatus !== undefined) return "HTTP " + delivery.lastResponseStatus + (delivery.lastLatencyMillis === undefined ? "" : " in " + delivery.lastLatencyMillis + " ms");
    return delivery.lastError || "";
  }

  function redeliverButton(delivery) {
    return el("button", { type: "button", class: "secondary", "aria-label": "Redeliver " + delivery.eventType + " " + delivery.id, text: "Redeliver", on: { click: function () {
      call("POST", "webhooks/deliveries/" + encodeURIComponent(delivery.id) + "/redeliver").then(function (answer) {
        return render().then(function () {
          announce(answer.status === 200 ? "Redelivery of " + delivery.eventType + " queued: " + answer.body.status : "Redelivery refused: HTTP " + answer.status);
        });
      });
    } } });
  }

  function input(label, name, type, value) { return [label, el("input", { name: name, type: type, value: value, min: type === "number" ? "1" : undefined })]; }
  function select(label, name, options) { return [label, el("select", { name: name }, options.map(function (option) { return el("option", { value: option[0], text: option[1] }); }))]; }

  function form(legend, fields, action, status, submit) {
    var button = el("button", { type: "submit", text: action });
    var node = el("form", { novalidate: "" }, [el("fieldset", {}, [el("legend", { text: legend })].concat(fields, [button])), status]);
    node.addEventListener("submit", function (event) {
      event.preventDefault();
      button.disabled = true;
      submit().catch(function (error) { status.textContent = error.message; }).then(function () { button.disabled = false; });
    });
    return node;
  }

  function simulator(id, legend, fields, send) {
    var status = el("div", { role: "status", id: "result-" + id });
    var labelled = fields.map(function (field, index) {
      var control = field[1];
      control.setAttribute("id", id + "-" + index);
      return el("label", { for: id + "-" + index }, [field[0], control]);
    });
    return form(legend, labelled, "Run", status, function () {
      var values = {};
      labelled.forEach(function (label) { var control = label.lastChild; values[control.name] = control.value; });
      return send(values).then(function (answer) { report(status, answer); });
    });
  }

  function report(status, answer) {
    status.textContent = "";
    status.appendChild(el("p", { class: answer.status < 300 ? "ok" : "bad", text: "HTTP " + answer.status + (answer.body && answer.body.code ? " " + answer.body.code : "") }));
    status.appendChild(json(answer.body));
  }

  var announcement = null;
  function announce(text) {
    announcement = el("p", { role: "status", class: "ok", text: text });
    main.insertBefore(announcement, main.firstChild);
  }

  function render() {
    var parts = (location.hash.replace(/^#/, "") || "customers").split("/");
    var name = parts[0];
    var id = decodeURIComponent(parts.slice(1).join("/"));
    var view = views[name] || views.customers;
    var section = { customer: "customers", quote: "quotes", transaction: "transactions", delivery: "webhooks" }[name] || (views[name] ? name : "customers");
    nav.forEach(function (anchor) {
      if (anchor.getAttribute("href") === "#" + section) anchor.setAttribute("aria-current", "page");
      else anchor.removeAttribute("aria-current");
    });
    main.setAttribute("aria-busy", "true");
    return view(id).then(function (nodes) { return nodes; }, function (error) {
      return [el("h2", { text: "Could not load this view" }), el("p", { class: "bad", text: error.message })];
    }).then(function (nodes) {
      main.textContent = "";
      nodes.forEach(function (node) { if (node) main.appendChild(node); });
      main.removeAttribute("aria-busy");
      var heading = main.querySelector("h2");
      if (heading) document.title = heading.textContent + " · Payrail sandbox console";
    });
  }

  window.addEventListener("hashchange", function () { render().then(function () { main.focus(); }); });
  // The skip link moves focus to the view it skips to: followed as a link, it would change the hash to "#view",
  // which names no view, and replace the one shown with the customers.
  document.querySelector("a.skip").addEventListener("click", function (event) {
    event.preventDefault();
    main.focus();
  });
  render();
})();
`
