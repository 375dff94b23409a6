import type { ReminderMessages } from "./en";

export const ja: ReminderMessages = {
  subject: {
    before: "お支払いのご案内：{date}期限 {amount}（{invoice}）",
    friendly: "お支払いのお願い：{date}期限 {amount}（{invoice}）",
    firm: "お支払い期限超過：{date}期限 {amount}（{invoice}）",
    final: "最終のご案内：{date}期限 {amount}（{invoice}）",
  },
  greeting: "{name} 様",
  lead_before: "{issuer}の{invoice}について、{amount}のお支払い期限は{date}です。",
  lead_today: "{issuer}の{invoice}について、{amount}のお支払い期限は本日{date}です。",
  lead_overdue: "{issuer}の{invoice}について、{amount}のお支払い期限は{date}で、{days}日経過しています。",
  lead_overdue_one: "{issuer}の{invoice}について、{amount}のお支払い期限は{date}で、1日経過しています。",
  tone: {
    friendly: "すでにお支払い済みの場合は、本メールは破棄してください。ありがとうございます。",
    firm: "至急お支払いいただくか、お支払い予定日をお知らせください。",
    final: "これが最終のご案内です。速やかにお支払いください。",
  },
  reference: "お支払い参照番号（お振込時にご記入ください）：{reference}",
  bank_heading: "振込先",
  account_holder: "口座名義",
  iban: "IBAN",
  bic: "BIC",
  account_number: "口座番号",
  routing_number: "ルーティング番号",
  sort_code: "ソートコード",
  bank_name: "銀行",
  interest: "ご参考：{overdue}に対する年{rate}%の遅延利息（{today}時点）：{interest}",
  compensation: "ご参考：回収費用の定額補償：{compensation}",
  link: "詳細の確認とオンラインでのお支払い：{url}",
  link_label: "詳細の確認とお支払い",
  closing: "よろしくお願いいたします。",
};
