// A webhook endpoint as GET /api/webhook-endpoints answers it (its secret never among its fields).

export type Endpoint = {
  id: string;
  url: string;
  events: string[];
  description: string | null;
  status: 'enabled' | 'disabled';
  disabledReason: string | null;
  previousSecretExpiresAt: string | null;
  createdAt: string;
};
