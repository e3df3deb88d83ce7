import type { StaffView } from '@gatehouse/contracts';
import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A dashboard user (decisions A2); their roles are memberships of publications. */
@Entity({ name: 'staff' })
export class Staff {
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  /** Lower-cased, so sign-in ignores the case the address is typed in. */
  @Column({ type: 'text' })
  email: string;

  @Column({ type: 'text' })
  name: string;

  @Column({ name: 'password_hash', type: 'text' })
  passwordHash: string;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}

export function staffView({ id, email, name }: Staff): StaffView {
  return { id, email, name };
}

export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}
