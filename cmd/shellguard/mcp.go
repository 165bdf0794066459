package main

import "github.com/spf13/cobra"

func newMCPCmd(s *streams) *cobra.Command { return &cobra.Command{Use: "mcp", Hidden: true} }
